"""Data in and out with the Python SDK: docs/DATA.md's reset snippet against a server started with
--seed, and `malachite export`/`import` (online with a connection string, offline on a stopped
data dir) read back through azure-data-tables with every EDM type."""
import json
import os
import subprocess
import tempfile
import urllib.request
import uuid

import pytest
from azure.data.tables import EdmType, EntityProperty, TableServiceClient

from conftest import binary, service_client, start, stop_checked


def cli(*args):
    return subprocess.run([binary(), *args], capture_output=True, text=True, timeout=120)


def reset_tables(base_url, seed=True):
    # docs/DATA.md's Python snippet (standard library only).
    url = base_url + "/-/reset" + ("" if seed else "?seed=false")
    with urllib.request.urlopen(urllib.request.Request(url, method="POST")) as response:
        return json.load(response)


@pytest.fixture(scope="module")
def seeded():
    with tempfile.TemporaryDirectory(prefix="malachite-seed-") as seed:
        with open(os.path.join(seed, "people.jsonl"), "w") as f:
            f.write('{"PartitionKey":"a","RowKey":"1","Name":"Ada","Born@odata.type":"Edm.DateTime",'
                    '"Born":"1815-12-10T00:00:00Z"}\n')
        srv = start(args=["--seed", seed])
        yield srv
        stop_checked(srv)


def test_reset_restores_the_fixtures_between_tests(seeded):
    base = "http://127.0.0.1:%d" % seeded.port
    with service_client(seeded) as service:
        people = service.get_table_client("people")
        people.upsert_entity({"PartitionKey": "a", "RowKey": "2", "Name": "Temp"})
        service.create_table("scratch%s" % uuid.uuid4().hex[:8])
        summary = reset_tables(base)
        assert summary["tables_deleted"] == 2
        assert summary["entities_seeded"] == 1
        assert [e["Name"] for e in people.list_entities()] == ["Ada"]
        assert [t.name for t in service.list_tables()] == ["people"]
        reset_tables(base, seed=False)
        assert list(service.list_tables()) == []


def test_export_import_with_a_connection_string_and_offline(tmp_path):
    data_dir = str(tmp_path / "data")
    srv = start(data_dir=data_dir)
    try:
        with service_client(srv) as service:
            table = service.create_table("pyexport%s" % uuid.uuid4().hex[:8])
            table.upsert_entity({
                "PartitionKey": "p", "RowKey": "r",
                "Big": EntityProperty(2**53 + 1, EdmType.INT64),
                "When": EntityProperty("2024-02-29T23:59:59.1234567Z", EdmType.DATETIME),
                "Id": uuid.UUID("01234567-89ab-cdef-0123-456789abcdef"),
                "Raw": b"\x00\xff", "Ratio": float("-inf"), "Text": "x,y",
            })
            exported = cli("export", "--connection-string", srv.connection_string,
                           "--table", table.table_name, "--format", "csv")
            assert exported.returncode == 0, exported.stderr
            assert exported.stdout.startswith(
                "PartitionKey,RowKey,Big:Int64,When:DateTime,Id:Guid,Raw:Binary,Ratio:Double,Text:String\n"
                "p,r,9007199254740993,2024-02-29T23:59:59.1234567Z,01234567-89ab-cdef-0123-456789abcdef,AP8=,-Infinity,\"x,y\"\n")
    finally:
        srv.stop()
    # Offline, on the stopped server's data dir: into a new table, then read with the SDK.
    csv = tmp_path / "copy.csv"
    csv.write_text(exported.stdout)
    imported = cli("import", str(csv), "--data-dir", data_dir)
    assert imported.returncode == 0, imported.stderr
    srv2 = start(data_dir=data_dir)
    try:
        with service_client(srv2) as service:
            e = service.get_table_client("copy").get_entity("p", "r")
            assert e["Big"].value == 2**53 + 1
            assert e["Id"] == uuid.UUID("01234567-89ab-cdef-0123-456789abcdef")
            assert e["Raw"] == b"\x00\xff"
            assert e["Ratio"] == float("-inf")
            assert e["Text"] == "x,y"
    finally:
        stop_checked(srv2)


@pytest.mark.posix_only("/dev/full: a file whose every write fails with ENOSPC")
@pytest.mark.parametrize("entities", [1, 2000])  # the last flush only; writes that fail mid-table
def test_export_that_cannot_write_exits_1_and_says_so(tmp_path, entities):
    srv = start(data_dir=str(tmp_path / "data"))
    try:
        with service_client(srv) as service:
            table = service.create_table("pyfull%s" % uuid.uuid4().hex[:8])
            table.submit_transaction([("upsert", {"PartitionKey": "p", "RowKey": "%05d" % i, "Text": "x" * 40})
                                      for i in range(min(entities, 100))])
            for i in range(100, entities):
                table.upsert_entity({"PartitionKey": "p", "RowKey": "%05d" % i, "Text": "x" * 40})
        target = ["export", "--connection-string", srv.connection_string, "--table", table.table_name]
        expected = "malachite export: %s: InternalError: cannot write the output\n" % table.table_name
        to_file = cli(*target, "--output", "/dev/full")
        assert (to_file.returncode, to_file.stderr) == (1, expected)
        with open("/dev/full", "w") as full:
            to_stdout = subprocess.run([binary(), *target], stdout=full, stderr=subprocess.PIPE,
                                       text=True, timeout=120)
        assert (to_stdout.returncode, to_stdout.stderr) == (1, expected)
    finally:
        stop_checked(srv)
