"""A full data disk can be emptied through the API (docs/DURABILITY.md, "Empty a full disk through the API", storage/FORMAT.md
"Full disks").

LMDB needs fresh pages even to delete, so without help every delete on a full disk failed. The
server keeps a space reserve in the data dir; the commit that finds the disk full gives it back
and raises the space alarm: deletes (one by one, in a batch, by table) commit, writes that add
data answer 409 InsufficientAccountResources without being tried, and once the deletes freed
enough pages new inserts go into them. The data dir is a 16 MiB tmpfs filled with 1 KiB
entities (root only: otherwise the module skips and says why).
"""
import os
import shutil
import subprocess
import threading
import time

import pytest
from azure.core.exceptions import HttpResponseError

from conftest import log, service_client, start, stop_checked, unique_name, wire_error_code

VALUE = "x" * 1000  # 1 KiB entities, as in the issue


def _can_mount():
    if os.geteuid() != 0:
        return "not root: mounting a small tmpfs needs root (CI runs as root)"
    if shutil.which("mount") is None:
        return "mount (util-linux) is missing"
    return None


pytestmark = [pytest.mark.skipif(_can_mount() is not None, reason=_can_mount() or ""),
              pytest.mark.posix_only("a small tmpfs mounted as the full disk; under Wine the space reserve is a sparse file (Wine's SetEndOfFile is an ftruncate), so the reserve holds no blocks there")]


@pytest.fixture
def disk(tmp_path):
    path = str(tmp_path / "disk")
    os.makedirs(path)
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", path],
                            capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip("cannot mount a tmpfs here: " + result.stderr.strip())
    yield path
    subprocess.run(["umount", "-l", path], check=False)


def _entity(row, pk="p"):
    return {"PartitionKey": pk, "RowKey": row, "v": VALUE}


def _fill(table, prefix, limit=30000):
    """Inserts 1 KiB entities until one fails; returns (acknowledged row keys, the error)."""
    acked = []
    for i in range(limit):
        row = "%s%06d" % (prefix, i)
        try:
            table.create_entity(_entity(row))
        except HttpResponseError as error:
            return acked, error
        acked.append(row)
    return acked, None


def _assert_full(error):
    assert error is not None, "the disk never filled"
    assert error.status_code == 409, error
    assert wire_error_code(error) == "InsufficientAccountResources"
    assert "nothing was written" in str(error)


def _rows(table):
    return [e["RowKey"] for e in table.list_entities(select=["RowKey"])]


def _log_line(server, error):
    request_id = error.response.headers["x-ms-request-id"]
    line = next((l for l in log(server).splitlines() if request_id in l), None)
    assert line is not None, "no log line for request %s:\n%s" % (request_id, log(server))
    return line


def test_a_full_disk_takes_deletes_one_by_one_in_a_batch_and_by_table_then_new_inserts(disk):
    server = start(data_dir=os.path.join(disk, "data"))
    try:
        with service_client(server) as service:
            spare = service.create_table(unique_name("spare"))
            for i in range(600):
                spare.create_entity(_entity("s%04d" % i))
            table = service.create_table(unique_name("full"))
            acked, failure = _fill(table, "r")
            _assert_full(failure)
            assert len(acked) > 3000
            # (a) one by one: every delete commits (before the reserve, 40 of 40 failed).
            failed = []
            for row in acked[:40]:
                try:
                    table.delete_entity("p", row)
                except HttpResponseError as error:
                    failed.append((row, error.status_code, str(error)[:200]))
            assert failed == [], "%d of 40 deletes failed: %s" % (len(failed), failed[:3])
            assert "space alarm raised" in _log_line(server, failure)

            # Still raised: writes that add data are refused without being tried; reads go on.
            with pytest.raises(HttpResponseError) as refused:
                table.create_entity(_entity("refused"))
            _assert_full(refused.value)
            assert "only deletes are accepted" in str(refused.value)
            assert "[warning]" in _log_line(server, refused.value)
            assert table.get_entity("p", acked[-1])["v"] == VALUE

            # (b) a batch of 100 deletes.
            table.submit_transaction([("delete", _entity(row)) for row in acked[40:140]])

            # (c) a whole table.
            service.delete_table(spare.table_name)
            assert spare.table_name not in [t.name for t in service.list_tables()]
            left = acked[140:]
            assert _rows(table) == left

            # The freed pages take new inserts (the reclaimer removes the table's entities in the
            # background: wait for the alarm to clear, then fill again until the disk is full).
            deadline = time.monotonic() + 20
            while True:
                try:
                    table.create_entity(_entity("n000000"))
                    break
                except HttpResponseError as error:
                    _assert_full(error)
                    assert time.monotonic() < deadline, "the alarm never cleared: %s" % error
                    time.sleep(0.2)
            more, refill = _fill(table, "m", limit=5000)
            more = ["n000000"] + more
            _assert_full(refill)
            assert len(more) > 500, "only %d inserts after freeing ~740 entities" % len(more)
            assert sorted(_rows(table)) == sorted(left + more)

            # A second time round: the reserve was taken back, so deletes commit again.
            failed = [row for row in more[:40] if _try_delete(table, row)]
            assert failed == []
            print("filled %d; deletes 40/40, batch of 100, table of 600; refilled %d; "
                  "second round 40/40" % (len(acked), len(more)))
        stop_checked(server)
        server = None
    finally:
        if server is not None:
            server.kill()


def _try_delete(table, row):
    """Deletes one entity; returns the error text, or None when it committed."""
    try:
        table.delete_entity("p", row)
        return None
    except HttpResponseError as error:
        return "%s %s" % (error.status_code, str(error)[:200])


def test_a_delete_that_finds_no_room_at_all_answers_409_with_a_log_line(disk):
    server = start(data_dir=os.path.join(disk, "data"))
    hog = os.path.join(disk, "hog")
    try:
        with service_client(server) as service:
            table = service.create_table(unique_name("full"))
            acked, failure = _fill(table, "r")
            _assert_full(failure)
            # Another program takes the room the alarm gave back for deletes.
            with open(hog, "wb") as f:
                try:
                    while True:
                        f.write(b"\0" * 65536)
                        f.flush()
                except OSError:
                    pass
            # A batch deleting every other entity needs a fresh page for each leaf it touches.
            batch = [("delete", _entity(row)) for row in acked[0:200:2]]
            with pytest.raises(HttpResponseError) as no_room:
                table.submit_transaction(batch)
            error = no_room.value
            assert getattr(error, "error_code", None) == "InsufficientAccountResources" or \
                wire_error_code(error) == "InsufficientAccountResources", error
            assert error.status_code != 500
            line = _log_line(server, error)
            assert "409 InsufficientAccountResources" in line and "[warning]" in line
            os.remove(hog)
            table.submit_transaction(batch)
            for row in acked[1:80:2]:
                table.delete_entity("p", row)
            gone = set(acked[0:200:2]) | set(acked[1:80:2])
            assert _rows(table) == [row for row in acked if row not in gone]
        stop_checked(server)
        server = None
    finally:
        if server is not None:
            server.kill()


def test_the_reserve_size_is_a_flag_and_0_means_no_reserve_and_no_alarm(disk):
    data = os.path.join(disk, "data")
    reserve = os.path.join(data, "space.reserve")
    server = start(data_dir=data, args=["--space-reserve-mb", "4"])
    try:
        assert os.stat(reserve).st_blocks * 512 == 4 << 20
        stop_checked(server)
        # 0: the leftover reserve gives its blocks back, and a full disk raises no alarm.
        server = start(data_dir=data, args=["--space-reserve-mb", "0"])
        assert not os.path.exists(reserve)
        with service_client(server) as service:
            table = service.create_table(unique_name("noreserve"))
            acked, failure = _fill(table, "r")
            assert failure is not None and failure.status_code == 409, failure
            assert wire_error_code(failure) == "InsufficientAccountResources"
            assert table.get_entity("p", acked[-1])["RowKey"] == acked[-1]
        assert "space alarm raised" not in log(server), log(server)
        stop_checked(server)
        server = None
    finally:
        if server is not None:
            server.kill()


class _Worker(threading.Thread):
    """Runs (kind, table, row) operations in order, recording which were acknowledged; the one
    in flight when the server dies is `unsure`."""

    def __init__(self, server, ops):
        super().__init__(daemon=True)
        self.service = service_client(server, connection_timeout=5, read_timeout=10)
        self.ops = ops
        self.acked = []
        self.unsure = None
        self.full = None

    def run(self):
        for op in self.ops:
            kind, table_name, row = op
            table = self.service.get_table_client(table_name)
            self.unsure = op
            try:
                if kind == "insert":
                    table.create_entity(_entity(row))
                else:
                    table.delete_entity("p", row)
            except HttpResponseError as error:
                if error.status_code == 409 and kind == "insert":
                    self.unsure = None  # refused: nothing was written
                    self.full = error
                    return
                return
            except Exception:  # the server died under us
                return
            self.acked.append(op)
            self.unsure = None


class _Model:
    """What must be stored: acknowledged inserts not acknowledged-deleted since."""

    def __init__(self):
        self.present = set()
        self.deleted = set()
        self.unsure = set()

    def apply(self, worker):
        for kind, table_name, row in worker.acked:
            key = (table_name, row)
            if kind == "insert":
                self.present.add(key)
                self.deleted.discard(key)
            else:
                self.present.discard(key)
                self.deleted.add(key)
            self.unsure.discard(key)
        if worker.unsure is not None:
            key = (worker.unsure[1], worker.unsure[2])
            self.present.discard(key)
            self.deleted.discard(key)
            self.unsure.add(key)

    def check(self, server, table_name):
        with service_client(server) as service:
            stored = {(table_name, r) for r in _rows(service.get_table_client(table_name))}
        missing = sorted(self.present - stored)
        resurrected = sorted(self.deleted & stored)
        assert missing == [] and resurrected == [], (
            "after kill -9: %d acknowledged inserts missing %s, %d acknowledged deletes back %s"
            % (len(missing), missing[:3], len(resurrected), resurrected[:3]))
        # Settle the unsure ones by what the restarted server holds.
        for key in self.unsure:
            (self.present if key in stored else self.deleted).add(key)
        self.unsure.clear()
        return len(self.present) + len(self.deleted)


def _run_and_kill(server, ops, kill_after):
    """Runs `ops` on a worker and kill -9s the server once `kill_after` of them were
    acknowledged (or the worker stopped), then restarts it on its data dir. Returns the worker
    and the restarted server."""
    worker = _Worker(server, ops)
    worker.start()
    deadline = time.monotonic() + 60
    while worker.is_alive() and len(worker.acked) < kill_after and time.monotonic() < deadline:
        time.sleep(0.002)
    server.kill()
    worker.join(timeout=30)
    worker.service.close()
    return worker, start(data_dir=server.data_dir)


def test_kill_9_during_fill_deletes_and_reinserts_loses_nothing_acknowledged(disk):
    server = start(data_dir=os.path.join(disk, "data"))
    model = _Model()
    checked = []
    try:
        name = unique_name("kill")
        with service_client(server) as service:
            service.create_table(name)
        rows = ["r%06d" % i for i in range(30000)]
        # 1. Killed in the middle of the fill, then filled to the brim and killed while full.
        worker, server = _run_and_kill(server, [("insert", name, r) for r in rows], kill_after=2000)
        model.apply(worker)
        checked.append(model.check(server, name))
        first = len(worker.acked) + 1
        worker, server = _run_and_kill(server, [("insert", name, r) for r in rows[first:]],
                                       kill_after=len(rows))
        assert worker.full is not None, "the disk never filled"
        # Killed with the alarm raised (the reserve given back): the restart says so at once.
        assert "space alarm raised; deletes are served" in log(server), log(server)
        model.apply(worker)
        checked.append(model.check(server, name))
        present = sorted(r for _, r in model.present)
        # 2. Killed in the middle of deletes on the full disk; after the restart deletes go on.
        worker, server = _run_and_kill(server, [("delete", name, r) for r in present[:400]],
                                       kill_after=150)
        model.apply(worker)
        checked.append(model.check(server, name))
        assert len(worker.acked) >= 150, "deletes stalled on the full disk"
        # 3. Killed in the middle of new inserts into the freed pages.
        present = sorted(r for _, r in model.present)
        worker, server = _run_and_kill(server, [("delete", name, r) for r in present[:1500]],
                                       kill_after=1500)
        model.apply(worker)
        assert len(worker.acked) == 1500, "a delete failed: %s" % (worker.unsure,)
        checked.append(model.check(server, name))
        again = ["n%06d" % i for i in range(3000)]
        worker, server = _run_and_kill(server, [("insert", name, r) for r in again],
                                       kill_after=300)
        model.apply(worker)
        assert len(worker.acked) >= 300, "the freed pages took only %d inserts: %s" % (
            len(worker.acked), worker.full)
        checked.append(model.check(server, name))
        stop_checked(server)
        server = None
        print("kill -9 trials: %d, acknowledged writes checked after each: %s"
              % (len(checked), checked))
    finally:
        if server is not None:
            server.kill()
