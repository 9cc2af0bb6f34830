"""A full store answers an error and loses nothing (spec: emulator behaviour, storage/FORMAT.md).

The server runs with a tiny LMDB map (--map-size-mb 4) so "disk full" arrives after a few MiB:
the failing insert must answer 409 InsufficientAccountResources, every acknowledged entity must
stay readable, and a restart with a larger map on the same data dir must keep them and accept
writes again.
"""
import pytest
from azure.core.exceptions import HttpResponseError

from conftest import service_client, start, stop_checked, unique_name, wire_error_code

BLOB = b"\x5a" * 60000


def test_full_map_answers_an_error_and_keeps_acknowledged_writes(tmp_path):
    data_dir = str(tmp_path / "data")
    table_name = unique_name("full")
    server = start(data_dir=data_dir, args=["--map-size-mb", "4"])
    try:
        with service_client(server) as service:
            table = service.create_table(table_name)
            acked = []
            failure = None
            for i in range(400):  # 400 x 60 KB = 24 MB, far past a 4 MiB map
                try:
                    table.create_entity({"PartitionKey": "p", "RowKey": "r%04d" % i, "blob": BLOB})
                    acked.append("r%04d" % i)
                except HttpResponseError as error:
                    failure = error
                    break
            assert failure is not None, "4 MiB map took %d x 60 KB entities without an error" % len(acked)
            assert failure.status_code == 409, failure
            assert wire_error_code(failure) == "InsufficientAccountResources"
            assert len(acked) > 5
            # Reads still work and see every acknowledged entity.
            rows = [e["RowKey"] for e in table.list_entities(select=["RowKey"])]
            assert rows == acked
            assert table.get_entity("p", acked[-1])["blob"] == BLOB
        stop_checked(server)

        server = start(data_dir=data_dir, args=["--map-size-mb", "64"])
        with service_client(server) as service:
            table = service.get_table_client(table_name)
            assert [e["RowKey"] for e in table.list_entities(select=["RowKey"])] == acked
            table.create_entity({"PartitionKey": "p", "RowKey": "after", "blob": BLOB})
    finally:
        stop_checked(server)
