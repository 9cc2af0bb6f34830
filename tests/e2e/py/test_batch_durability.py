"""Batch atomicity under concurrent writers and `kill -9` (spec §7.1): 8 threads submit 20-entity
transactions (each its own partition) as fast as the server acknowledges them, every seventh one
adding rows to an earlier partition and failing on its last operation (inside the write); the
server is SIGKILLed mid-stream and restarted on the same data dir, in both durability modes. Afterwards every partition holds all 20 rows or none, every acknowledged batch is complete,
and no failed batch left anything behind.
"""
import collections
import threading
import time

import pytest

from azure.data.tables import TableTransactionError

from conftest import crash, service_client, start, stop_checked, unique_name

WRITERS = 8
ROWS = 20
MIN_ACKED_BEFORE_KILL = 150
MAX_SECONDS_BEFORE_KILL = 20.0


class BatchWriter(threading.Thread):
    def __init__(self, server, table_name, index):
        super().__init__(daemon=True)
        self.index = index
        self.service = service_client(server, connection_timeout=5, read_timeout=10)
        self.client = self.service.get_table_client(table_name)
        self.acked = []  # partitions whose transaction returned success
        self.failed = []  # partitions whose transaction was refused (conflict on its last row)
        self.unexpected = []  # refusals with another code (asserted in the main thread)
        self.stop = threading.Event()

    def run(self):
        for seq in range(100000):  # bounded; the kill ends it long before
            if self.stop.is_set():
                return
            if seq % 7 == 6 and self.acked:
                # Adds rows to an earlier batch's partition, then collides with its row "00": the
                # failure happens inside the write, after 19 operations were applied.
                pk = self.acked[-1]
                ops = [("create", {"PartitionKey": pk, "RowKey": "x%02d" % r, "v": r}) for r in range(ROWS - 1)]
                ops.append(("create", {"PartitionKey": pk, "RowKey": "00", "v": -1}))
            else:
                pk = "w%d-b%06d" % (self.index, seq)
                ops = [("create", {"PartitionKey": pk, "RowKey": "%02d" % r, "v": r}) for r in range(ROWS)]
            try:
                self.client.submit_transaction(ops)
                self.acked.append(pk)
            except TableTransactionError as e:
                self.failed.append(pk)
                if e.error_code != "EntityAlreadyExists" or e.index != ROWS - 1:
                    self.unexpected.append((pk, e.error_code, e.index))
            except Exception:  # the server died under us; the rest is unacknowledged
                return


@pytest.mark.parametrize("durability", ["process", "full"])
def test_batches_are_all_or_nothing_across_kill_9(tmp_path, durability):
    data_dir = str(tmp_path / "data")
    args = ["--durability", durability]
    server = start(data_dir=data_dir, args=args)
    table_name = unique_name("bdur")
    try:
        with service_client(server) as service:
            service.create_table(table_name)
        writers = [BatchWriter(server, table_name, i) for i in range(WRITERS)]
        for w in writers:
            w.start()
        deadline = time.monotonic() + MAX_SECONDS_BEFORE_KILL
        while time.monotonic() < deadline and sum(len(w.acked) for w in writers) < MIN_ACKED_BEFORE_KILL:
            time.sleep(0.02)
        crash(server)
        for w in writers:
            w.stop.set()
            w.join(timeout=30)
            w.service.close()
        server = start(data_dir=data_dir, args=args)
        with service_client(server) as service:
            stored = [(e["PartitionKey"], e["RowKey"])
                      for e in service.get_table_client(table_name).list_entities(select=["PartitionKey", "RowKey"])]
        counts = collections.Counter(pk for pk, _ in stored)
        partial = {pk: n for pk, n in counts.items() if n != ROWS}
        assert not partial, "partially applied batches: %s" % list(partial.items())[:5]
        lost = [pk for w in writers for pk in w.acked if pk not in counts]
        assert not lost, "%d acknowledged batches lost, e.g. %s" % (len(lost), lost[:5])
        leaked = [key for key in stored if key[1].startswith("x")]
        assert not leaked, "failed batches left rows: %s" % leaked[:5]
        assert sum(len(w.acked) for w in writers) >= 1 and sum(len(w.failed) for w in writers) >= 1
        unexpected = [u for w in writers for u in w.unexpected]
        assert not unexpected, unexpected[:5]
    finally:
        stop_checked(server)
