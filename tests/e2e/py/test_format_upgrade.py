"""Data that survives upgrades (storage/FORMAT.md, "Format versions and upgrades"): the data
directory written by the release that introduced format version 1 (tests/data/format-v1, made by
write_format_fixture below) is served exactly by this build through the Python SDK, and a
store of a newer format version is refused with one line and exit status 1, every file of its
directory byte-identical.

The content is defined once here: write_format_fixture writes it when this file is run as a
program (`python3 tests/e2e/py/test_format_upgrade.py <empty directory>`, MALACHITE_BINARY naming
the release's binary; a committed fixture is never rewritten) and the tests below read it back."""
import hashlib
import os
import shutil
import subprocess
import uuid
from datetime import datetime, timezone

import pytest
from azure.data.tables import (EdmType, EntityProperty, TableAccessPolicy, TableAnalyticsLogging,
                               TableCorsRule, TableMetrics, TableRetentionPolicy,
                               TableServiceClient)

from conftest import binary, service_client, start, stop_checked

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "format-v1")
RUNTIME_ACCOUNT = "fixtureacct"
RUNTIME_KEY = "Zml4dHVyZSBhY2NvdW50IGtleSBmb3IgZm9ybWF0IHYx"
LONG_PK = "L" * 600  # an encoded key of 500 bytes or more: an overflow bucket (FORMAT.md)

# Every EDM type, the Double values that text formats lose, an empty PartitionKey and RowKey, a
# key whose UTF-16 order differs from its code point order, and a key long enough for a bucket;
# in the service's key order.
TYPES_ENTITIES = [
    {"PartitionKey": "", "RowKey": "", "Note": "empty keys"},
    {"PartitionKey": LONG_PK, "RowKey": "1", "Text": "in a bucket"},
    {"PartitionKey": "p", "RowKey": "all",
     "Text": "text", "Small": EntityProperty(-42, EdmType.INT32),
     "Big": EntityProperty(2**53 + 1, EdmType.INT64), "Ratio": 1.5, "Flag": True,
     "When": datetime(2024, 2, 29, 23, 59, 59, 123456, tzinfo=timezone.utc),
     "Id": uuid.UUID("01234567-89ab-cdef-0123-456789abcdef"), "Raw": b"\x00\xff",
     "NegInf": float("-inf"), "NotANumber": float("nan")},
    {"PartitionKey": "p", "RowKey": "\U0001F600 astral", "Text": "\u00fcn\u00efcode"},
    {"PartitionKey": "p", "RowKey": "\uFF01 wide", "Text": "after the astral row in UTF-16 order"},
]
ORDERS_ENTITIES = [
    {"PartitionKey": "2024", "RowKey": "1", "Total": EntityProperty(5, EdmType.INT64)},
    {"PartitionKey": "2024", "RowKey": "2", "Total": EntityProperty(7, EdmType.INT64)},
]
ACL = {"read-only": TableAccessPolicy(start=datetime(2024, 1, 1, tzinfo=timezone.utc),
                                      expiry=datetime(2034, 1, 1, tzinfo=timezone.utc),
                                      permission="r")}
CORS = [TableCorsRule(["https://example.com"], ["GET", "PUT"])]


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def copy_fixture(tmp_path):
    """A copy of the committed data directory (its data.mdb only): the tests never open the
    committed one, so a run cannot change it."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    shutil.copyfile(os.path.join(FIXTURE, "data.mdb"), data_dir / "data.mdb")
    return data_dir


def comparable(entity):
    """An entity as plain values (NaN as a string, so that equal entities compare equal; the SDK
    leaves out an empty PartitionKey or RowKey)."""
    out = {"PartitionKey": "", "RowKey": ""}
    for name, value in entity.items():
        if isinstance(value, EntityProperty):
            value = value.value
        if isinstance(value, float) and value != value:
            value = "NaN"
        if isinstance(value, datetime):
            value = value.astimezone(timezone.utc).replace(tzinfo=None)
        out[name] = value
    return out


def write_format_fixture(out, work):
    """Writes the fixture's content through the SDK into a server on `work`/raw, stops it and
    compacts the result into `out` (empty or absent)."""
    if os.path.exists(out) and os.listdir(out):
        raise SystemExit("%s must be empty or absent: a committed fixture is never rewritten" % out)
    raw = os.path.join(work, "raw")
    srv = start(data_dir=raw)
    try:
        with service_client(srv) as service:
            types = service.create_table("Types")
            for entity in TYPES_ENTITIES:
                types.create_entity(entity)
            with_acl = service.create_table("WithAcl")
            with_acl.create_entity({"PartitionKey": "a", "RowKey": "b"})
            with_acl.set_table_access_policy(ACL)
            service.create_table("Gone").create_entity({"PartitionKey": "x", "RowKey": "y"})
            service.delete_table("Gone")  # its id (3) is never given again
            service.set_service_properties(
                analytics_logging=TableAnalyticsLogging(
                    read=True, retention_policy=TableRetentionPolicy(enabled=True, days=5)),
                hour_metrics=TableMetrics(enabled=True, include_apis=True,
                                          retention_policy=TableRetentionPolicy(enabled=True,
                                                                                days=3)),
                cors=CORS)
        account = srv.create_account(RUNTIME_ACCOUNT, RUNTIME_KEY)
        with TableServiceClient.from_connection_string(account.connection_string) as tenant:
            orders = tenant.create_table("Orders")
            for entity in ORDERS_ENTITIES:
                orders.create_entity(entity)
    finally:
        stop_checked(srv)
    os.makedirs(out, exist_ok=True)
    # LMDB: a compacted copy holds only live pages, renumbered: a small file, one version of each.
    subprocess.run(["mdb_copy", "-c", raw, out], check=True)


def test_the_format_v1_directory_is_served_exactly(tmp_path):
    srv = start(data_dir=str(copy_fixture(tmp_path)))
    try:
        with service_client(srv) as service:
            assert [t.name for t in service.list_tables()] == ["Types", "WithAcl"]
            types = service.get_table_client("Types")
            got = [comparable(e) for e in types.list_entities()]
            want = [comparable(e) for e in TYPES_ENTITIES]
            # Key order is the service's: the astral row before U+FF01 (UTF-16 order).
            assert got == want
            assert types.get_entity(LONG_PK, "1")["Text"] == "in a bucket"
            typed = types.get_entity("p", "all")
            assert typed["Small"] == -42 and typed["Big"].edm_type == EdmType.INT64
            assert typed["Big"].value == 2**53 + 1
            with_acl = service.get_table_client("WithAcl")
            policy = with_acl.get_table_access_policy()["read-only"]
            assert (policy.permission, policy.start, policy.expiry) == (
                "r", ACL["read-only"].start, ACL["read-only"].expiry)
            properties = service.get_service_properties()
            assert properties["analytics_logging"].read is True
            assert properties["analytics_logging"].retention_policy.days == 5
            assert properties["hour_metrics"].retention_policy.days == 3
            assert properties["cors"][0].allowed_origins == ["https://example.com"]
            # The deleted table stays deleted, and its name can be used again.
            service.create_table("Gone")
            assert list(service.get_table_client("Gone").list_entities()) == []
        assert [(a["name"], a["key"]) for a in srv.accounts() if a["runtime"]] == [
            (RUNTIME_ACCOUNT, RUNTIME_KEY)]
        with TableServiceClient.from_connection_string(
                "DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;TableEndpoint=%s/%s;"
                % (RUNTIME_ACCOUNT, RUNTIME_KEY, srv.endpoint, RUNTIME_ACCOUNT)) as tenant:
            orders = tenant.get_table_client("Orders")
            assert [comparable(e) for e in orders.list_entities()] == [
                comparable(e) for e in ORDERS_ENTITIES]
    finally:
        stop_checked(srv)


def files_in(data_dir):
    """Every file of `data_dir` by name: its size and SHA-256."""
    return {name: (os.path.getsize(data_dir / name), sha256(data_dir / name))
            for name in sorted(os.listdir(data_dir))}


def test_a_store_of_a_newer_format_is_refused_in_one_line_and_left_untouched(tmp_path):
    if shutil.which("mdb_load") is None:
        pytest.skip("mdb_load (lmdb-utils, scripts/install-deps) makes the newer store")
    data_dir = copy_fixture(tmp_path)
    # format_version 2, as a newer build would write it: u64 BE in the meta database. mdb_load
    # leaves data.mdb as long as its pages, and lock.mdb beside it.
    bump = tmp_path / "meta.txt"
    bump.write_text("format_version\n\\00\\00\\00\\00\\00\\00\\00\\02\n")
    subprocess.run(["mdb_load", "-s", "meta", "-T", "-f", str(bump), str(data_dir)], check=True)
    before = files_in(data_dir)
    assert sorted(before) == ["data.mdb", "lock.mdb"]
    result = subprocess.run([binary(), "--data-dir", str(data_dir), "--port", "0"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result
    assert result.stdout == ""
    assert result.stderr == (
        "malachite: data directory %s: storage format version 2 was written by a newer malachite;"
        " this build reads version 1: run that release or a newer one (nothing was changed)\n"
        % data_dir)
    # Every file as it was, in size and bytes (on Windows too, where LMDB's read-write open would
    # set data.mdb's end to the map); the data-dir lock is the one file added, empty
    # (storage/FORMAT.md, "Format versions and upgrades").
    after = files_in(data_dir)
    assert after.pop("malachite.lock") == (0, hashlib.sha256(b"").hexdigest())
    assert after == before
    before = files_in(data_dir)
    # The tools that open a data directory refuse it the same way, and touch nothing either.
    # (Their status is 2: they report every target they cannot open as a usage error.)
    exported = subprocess.run([binary(), "export", "--data-dir", str(data_dir), "--table", "Types"],
                              capture_output=True, text=True, timeout=60)
    assert exported.returncode != 0 and exported.stdout == "", exported
    assert exported.stderr.count("\n") == 1
    assert "storage format version 2" in exported.stderr
    assert files_in(data_dir) == before


if __name__ == "__main__":
    import sys
    import tempfile

    if len(sys.argv) != 2:
        raise SystemExit("usage: test_format_upgrade.py <empty directory for the new fixture>")
    with tempfile.TemporaryDirectory() as scratch:
        write_format_fixture(os.path.abspath(sys.argv[1]), scratch)
