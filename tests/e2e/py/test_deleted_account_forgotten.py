"""A runtime account deleted by DELETE /-/accounts/<name> leaves nothing the server reports:
once it has been used through the SDK, /-/metrics, /-/partitions, /-/bill and /-/advisor name it
until the delete, and none of them after (server/admin/account_endpoints.h; the bench/soak's
growth per deleted account)."""
import json
import urllib.error
import urllib.request

import pytest
from azure.data.tables import TableServiceClient

from conftest import start, stop_checked, unique_name

REPORTS = ("/-/metrics", "/-/partitions?format=json", "/-/bill", "/-/advisor")


def call(server, method, path, body=None):
    """(status, body text) of an admin call."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request("http://127.0.0.1:%d%s" % (server.port, path), data=data,
                                     method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.fixture(scope="module")
def server():
    s = start(args=["--in-memory"])
    yield s
    stop_checked(s)


def test_reports_no_longer_name_a_deleted_account(server):
    name = unique_name("gone")  # "gone" + 16 hex digits: a valid account name
    status, text = call(server, "POST", "/-/accounts", {"name": name})
    assert status == 201, text
    made = json.loads(text)
    with TableServiceClient.from_connection_string(made["connectionString"]) as service:
        client = service.create_table(unique_name("Orders"))
        client.upsert_entity({"PartitionKey": "p", "RowKey": "1"})
    assert name in call(server, "GET", "/-/metrics")[1]
    assert call(server, "DELETE", "/-/accounts/" + name)[0] == 204
    for path in REPORTS:
        status, text = call(server, "GET", path)
        assert status == 200, (path, text)
        assert name not in text, path


def test_partitions_no_longer_name_a_deleted_table(server):
    """The throttle forgets a deleted table's partitions (Throttle::ForgetTable): a long-lived
    server that makes and drops tables would otherwise walk tens of thousands every second."""
    with TableServiceClient.from_connection_string(server.connection_string) as service:
        table = unique_name("Dropped").lower()
        kept = unique_name("Kept").lower()
        for name in (table, kept):
            service.create_table(name).upsert_entity({"PartitionKey": "pk" + name, "RowKey": "1"})
        partitions = call(server, "GET", "/-/partitions?format=json&top=1000")[1]
        assert "pk" + table in partitions and "pk" + kept in partitions
        service.delete_table(table)
        partitions = call(server, "GET", "/-/partitions?format=json&top=1000")[1]
        assert "pk" + table not in partitions
        assert "pk" + kept in partitions
