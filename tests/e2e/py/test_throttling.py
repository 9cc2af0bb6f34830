"""Scalability targets and fault rules through azure-data-tables (spec §12).

The server of this module runs with throttling on, a partition target of 500 entities/s (a Python
client does not reach the default 2,000/s on one partition: the JS suite checks that one) and
one fault rule given in MALACHITE_FAULTS.
"""
import concurrent.futures
import json
import time
import urllib.request

import pytest
from azure.core.exceptions import HttpResponseError
from azure.data.tables import TableServiceClient

from conftest import start, stop_checked, unique_name, wire_error_code

FAULTY_TABLE = "pyfaultytable"
FAULT_RULE = {"fault": "OperationTimedOut", "every": 3, "table": FAULTY_TABLE}


@pytest.fixture(scope="module")
def server():
    srv = start(args=["--throttling", "on", "--partition-rate", "500"],
                env={"MALACHITE_FAULTS": json.dumps(FAULT_RULE)})
    yield srv
    stop_checked(srv)


def retrying_service(server):
    # The SDK's retry policy (exponential back-off on 500/503), with short delays for the test.
    # retry_status defaults to 3, which a partition held to its rate by 8 writers outlasts.
    return TableServiceClient.from_connection_string(server.connection_string, retry_total=10,
                                                     retry_status=10, retry_backoff_factor=0.4,
                                                     retry_backoff_max=4)


def admin(server, path):
    with urllib.request.urlopen("http://127.0.0.1:%d%s" % (server.port, path), timeout=10) as r:
        return r.read().decode()


def upserts(pk, first, count):
    return [("upsert", {"PartitionKey": pk, "RowKey": "r%06d" % (first + i), "n": first + i})
            for i in range(count)]


def outcome(call):
    try:
        call()
        return "ok"
    except HttpResponseError as e:
        return "%s %s" % (e.status_code, wire_error_code(e))


def test_hammering_one_partition_past_its_target_gets_server_busy_without_retries(server, service):
    table = service.create_table(unique_name("pyhot"))
    deadline = time.monotonic() + 10
    seen = []

    def worker(w):
        first = w * 1_000_000
        while time.monotonic() < deadline and "503 ServerBusy" not in seen:
            seen.append(outcome(lambda: table.submit_transaction(upserts("hot", first, 100))))
            first += 100

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(worker, range(8)))
    assert "503 ServerBusy" in seen, seen
    assert set(seen) == {"ok", "503 ServerBusy"}
    report = json.loads(admin(server, "/-/partitions?format=json"))
    hot = [p for p in report["partitions"] if p["partition"] == "hot"][0]
    assert hot["throttled"] > 0
    assert report["target"] == 500


def test_the_default_retry_policy_completes_the_same_work(server):
    with retrying_service(server) as service:
        name = unique_name("pyretry")
        table = service.create_table(name)
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda first: table.submit_transaction(upserts("busy", first, 100)),
                          range(0, 1500, 100)))
        count = sum(1 for _ in table.query_entities("PartitionKey eq 'busy'", select=["RowKey"]))
        assert count == 1500


def test_a_fault_rule_from_the_environment_fires_every_third_request_of_its_table(server, service):
    # Create Table names the table in its body, not its URL: it is not in the rule's scope.
    faulty = service.create_table(FAULTY_TABLE)
    results = [outcome(lambda i=i: faulty.create_entity({"PartitionKey": "p", "RowKey": str(i)}))
               for i in range(6)]
    assert results == ["ok", "ok", "500 OperationTimedOut"] * 2
    # The 7th request: not refused, and the refused insert was not applied.
    assert outcome(lambda: faulty.get_entity("p", "2")) == "404 ResourceNotFound"
    calm = service.create_table(unique_name("pycalm"))
    assert [outcome(lambda i=i: calm.create_entity({"PartitionKey": "p", "RowKey": str(i)}))
            for i in range(5)] == ["ok"] * 5
    with retrying_service(server) as retrying:
        table = retrying.get_table_client(FAULTY_TABLE)
        for i in range(10, 16):
            table.create_entity({"PartitionKey": "p", "RowKey": str(i)})
    rules = json.loads(admin(server, "/-/faults"))
    assert [(r["fault"], r["every"], r["table"]) for r in rules] == [
        ("OperationTimedOut", 3, FAULTY_TABLE)]
    assert rules[0]["fired"] >= 4
