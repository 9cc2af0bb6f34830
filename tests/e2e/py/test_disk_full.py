"""A full file system answers 409 InsufficientAccountResources, not 500 (docs/DURABILITY.md, "Know what happens when the store is full").

LMDB reports the short write of a commit on a full file system as EIO; the server maps it like
ENOSPC, keeps serving reads, logs the failure with its request id, and takes writes again once
space is freed. The data dir is a small tmpfs the test mounts (root only: otherwise it skips and
says why). The second test runs `--in-memory` with /dev/shm as small as a container's (Docker
gives 64 MB by default) in a mount namespace of its own.
"""
import os
import shutil
import subprocess
import tempfile

import pytest
from azure.core.exceptions import HttpResponseError

from conftest import binary, log, service_client, start, stop_checked, unique_name, wire_error_code

BLOB = b"\x5a" * 60000


def _can_mount():
    if os.geteuid() != 0:
        return "not root: mounting a small tmpfs needs root (CI runs as root)"
    if shutil.which("unshare") is None:
        return "unshare (util-linux) is missing"
    return None


pytestmark = [pytest.mark.skipif(_can_mount() is not None, reason=_can_mount() or ""),
              pytest.mark.posix_only("a small tmpfs mounted as the full disk; under Wine the space reserve is a sparse file (Wine's SetEndOfFile is an ftruncate), so the reserve holds no blocks there")]


def _mount_tmpfs(path, size):
    os.makedirs(path, exist_ok=True)
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%s" % size, "tmpfs", path],
                            capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip("cannot mount a tmpfs here: " + result.stderr.strip())


def _fill(table, prefix, limit=600):
    """Inserts 60 KB entities until one fails; returns (acknowledged row keys, the error)."""
    acked = []
    for i in range(limit):
        row = "%s%04d" % (prefix, i)
        try:
            table.create_entity({"PartitionKey": "p", "RowKey": row, "blob": BLOB})
        except HttpResponseError as error:
            return acked, error
        acked.append(row)
    return acked, None


def _assert_full(error):
    assert error is not None, "the file system never filled"
    assert error.status_code == 409, error
    assert wire_error_code(error) == "InsufficientAccountResources"
    assert "nothing was written" in str(error)


def test_a_full_tmpfs_answers_409_keeps_reads_and_takes_writes_once_space_is_freed(tmp_path):
    disk = str(tmp_path / "disk")
    _mount_tmpfs(disk, "12m")
    server = None
    try:
        # Ballast that the test removes later, standing for whatever else fills a real disk.
        with open(os.path.join(disk, "ballast"), "wb") as ballast:
            ballast.write(b"\0" * (4 << 20))
        server = start(data_dir=os.path.join(disk, "data"), args=["--map-size-mb", "1024"])
        with service_client(server) as service:
            table = service.create_table(unique_name("full"))
            acked, failure = _fill(table, "r")
            _assert_full(failure)
            assert len(acked) > 10
            # The store stays usable: later writes get the same answer, reads see every
            # acknowledged entity.
            _, again = _fill(table, "again", limit=3)
            _assert_full(again)
            assert [e["RowKey"] for e in table.list_entities(select=["RowKey"])] == acked
            assert table.get_entity("p", acked[-1])["blob"] == BLOB

            os.remove(os.path.join(disk, "ballast"))
            table.create_entity({"PartitionKey": "p", "RowKey": "after", "blob": BLOB})
            assert table.get_entity("p", "after")["blob"] == BLOB

        request_id = failure.response.headers["x-ms-request-id"]
        logged = log(server)
        line = next((l for l in logged.splitlines() if request_id in l), None)
        assert line is not None, "no log line for request %s:\n%s" % (request_id, logged)
        assert "[warning]" in line and "InsertEntity" in line and "InsufficientAccountResources" in line
        assert "Input/output error" in line or "No space left" in line
        stop_checked(server)
        server = None
    finally:
        if server is not None:
            server.kill()
        subprocess.run(["umount", "-l", disk], check=False)


def test_in_memory_on_a_small_dev_shm_answers_409_too(tmp_path):
    # /dev/shm of 16 MiB, in a mount namespace that only the server sees (unshare without
    # --fork execs in place: the PID the test stops is the server's).
    wrapper = tmp_path / "small-shm-malachite"
    wrapper.write_text(
        "#!/bin/sh\n"
        "exec unshare --mount --propagation private sh -c "
        "'mount -t tmpfs -o size=16m tmpfs /dev/shm && exec \"$0\" \"$@\"' %s \"$@\"\n"
        % binary())
    wrapper.chmod(0o755)
    server = start(args=["--in-memory"], binary=wrapper)
    try:
        with service_client(server) as service:
            table = service.create_table(unique_name("shm"))
            acked, failure = _fill(table, "m")
            _assert_full(failure)
            assert len(acked) > 10
            assert len(list(table.list_entities(select=["RowKey"]))) == len(acked)
        stop_checked(server)
        server = None
    finally:
        if server is not None:
            server.kill()
