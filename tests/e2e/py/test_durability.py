"""Durability: every write the server acknowledged survives `kill -9` and a restart on the same data dir,
in both durability modes (--durability process: committed to the page cache, synced in the background;
--durability full: synced before the acknowledgement).

16 writer threads insert (and upsert newer versions of) entities as fast as the server acknowledges
them, recording each acknowledged write; the server is SIGKILLed mid-stream, restarted, and every
acknowledged write must be there (a write whose acknowledgement never arrived may or may not be).
"""
import threading
import time

import pytest
from azure.core import MatchConditions
from azure.core.exceptions import ResourceModifiedError
from azure.data.tables import UpdateMode

from conftest import crash, service_client, start, stop_checked, unique_name

WRITERS = 16
MIN_ACKED_BEFORE_KILL = 1500
MAX_SECONDS_BEFORE_KILL = 20.0
PAYLOAD = "x" * 200


class Writer(threading.Thread):
    def __init__(self, server, table_name, index, round_no):
        super().__init__(daemon=True)
        self.index = index
        self.round_no = round_no
        self.service = service_client(server, connection_timeout=5, read_timeout=10)
        self.client = self.service.get_table_client(table_name)
        self.acked_inserts = []  # (pk, rk) whose insert returned success
        self.acked_versions = {}  # (pk, rk) -> highest version whose upsert returned success
        self.stop = threading.Event()

    def run(self):
        pk = "w%02d" % self.index
        for seq in range(200000):  # bounded; the kill or `stop` ends it long before
            if self.stop.is_set():
                return
            rk = "r%d-%06d" % (self.round_no, seq)
            try:
                if seq % 5 == 4 and self.acked_inserts:
                    # Every fifth write upserts a newer version of an earlier entity.
                    key = self.acked_inserts[seq % len(self.acked_inserts)]
                    version = self.acked_versions.get(key, 0) + 1
                    self.client.upsert_entity({"PartitionKey": key[0], "RowKey": key[1], "version": version},
                                              mode=UpdateMode.MERGE)
                    self.acked_versions[key] = version
                else:
                    self.client.create_entity({"PartitionKey": pk, "RowKey": rk, "version": 0,
                                               "payload": PAYLOAD})
                    self.acked_inserts.append((pk, rk))
            except Exception:  # the server died under us: stop, the rest is unacknowledged
                return


def run_round(server, table_name, round_no):
    writers = [Writer(server, table_name, i, round_no) for i in range(WRITERS)]
    for w in writers:
        w.start()
    deadline = time.monotonic() + MAX_SECONDS_BEFORE_KILL
    while time.monotonic() < deadline:
        if sum(len(w.acked_inserts) for w in writers) >= MIN_ACKED_BEFORE_KILL:
            break
        time.sleep(0.05)
    crash(server)  # mid-stream: writers are still sending
    for w in writers:
        w.stop.set()
        w.join(timeout=30)
        w.service.close()
    return writers


def check_all_acknowledged(server, table_name, writers):
    with service_client(server) as service:
        stored = {(e["PartitionKey"], e["RowKey"]): e["version"]
                  for e in service.get_table_client(table_name).list_entities(select=["PartitionKey", "RowKey", "version"])}
    missing = [k for w in writers for k in w.acked_inserts if k not in stored]
    assert not missing, "%d acknowledged inserts lost, e.g. %s" % (len(missing), missing[:5])
    stale = [(k, v, stored.get(k)) for w in writers for k, v in w.acked_versions.items()
             if stored.get(k, -1) < v]
    assert not stale, "%d acknowledged upserts lost, e.g. %s" % (len(stale), stale[:5])
    return len(stored)


DURABILITY_MODES = ["process", "full"]


@pytest.mark.parametrize("durability", DURABILITY_MODES)
def test_acknowledged_writes_survive_kill_minus_9(tmp_path, durability):
    data_dir = str(tmp_path / "data")
    table_name = unique_name("durable")
    args = ["--durability", durability]
    server = start(data_dir=data_dir, args=args)
    try:
        with service_client(server) as service:
            service.create_table(table_name)
        all_writers = []
        for round_no in range(2):
            writers = run_round(server, table_name, round_no)
            acked = sum(len(w.acked_inserts) for w in writers)
            upserts = sum(len(w.acked_versions) for w in writers)
            print("round %d: %d inserts and upserts of %d entities acknowledged before kill -9"
                  % (round_no, acked, upserts))
            assert acked > 100, "only %d writes acknowledged before the kill" % acked
            all_writers.extend(writers)
            server = start(data_dir=data_dir, args=args)  # on the killed one's data dir
            stored = check_all_acknowledged(server, table_name, all_writers)
            assert stored >= sum(len(w.acked_inserts) for w in all_writers)
        # The restarted server still takes writes.
        with service_client(server) as service:
            service.get_table_client(table_name).create_entity({"PartitionKey": "after", "RowKey": "kill"})
    finally:
        stop_checked(server)


@pytest.mark.parametrize("durability", DURABILITY_MODES)
def test_etag_conditioned_increments_lose_no_update(durability):
    """Lost update: 8 threads increment one counter with read + Update(If-Match), retrying on 412.
    Lone writes commit on the I/O thread and concurrent ones through the group writer; in either
    path the ETag check and the write are one step, so the counter ends at exactly the number of
    acknowledged increments."""
    threads_n, per_thread = 8, 25
    server = start(args=["--durability", durability])
    try:
        table_name = unique_name("counter")
        with service_client(server) as service:
            service.create_table(table_name).create_entity({"PartitionKey": "c", "RowKey": "n", "value": 0})
        acked = []
        errors = []

        def increment():
            with service_client(server) as service:
                client = service.get_table_client(table_name)
                for _ in range(per_thread):
                    for _attempt in range(10000):
                        current = client.get_entity("c", "n")
                        try:
                            client.update_entity({"PartitionKey": "c", "RowKey": "n", "value": current["value"] + 1},
                                                 mode=UpdateMode.REPLACE, etag=current.metadata["etag"],
                                                 match_condition=MatchConditions.IfNotModified)
                            acked.append(1)
                            break
                        except ResourceModifiedError:
                            continue  # another thread won this round: read again
                        except Exception as e:  # anything else fails the test
                            errors.append(repr(e))
                            return

        threads = [threading.Thread(target=increment) for _ in range(threads_n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        assert not errors, errors[:3]
        assert len(acked) == threads_n * per_thread
        with service_client(server) as service:
            assert service.get_table_client(table_name).get_entity("c", "n")["value"] == len(acked)
    finally:
        stop_checked(server)
