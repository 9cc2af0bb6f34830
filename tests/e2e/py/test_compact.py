"""malachite compact: the space of deleted data back from a stopped data directory, nothing lost
(storage/FORMAT.md, "Getting disk space back"), and the live and free pages /-/metrics shows."""
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.request

import pytest

import json

from conftest import binary, crash, log, service_client, start


def compact(data_dir):
    return subprocess.run([binary(), "compact", "--data-dir", data_dir], capture_output=True,
                          text=True, timeout=120)


def pages(server):
    with urllib.request.urlopen(server.endpoint + "/-/metrics", timeout=10) as r:
        text = r.read().decode()
    found = dict(re.findall(r"^malachite_store_(page_size_bytes|pages_live|pages_free) (\d+)$",
                            text, re.M))
    return {k: int(v) for k, v in found.items()}


def rows(count, note):
    return [{"PartitionKey": "p%03d" % (i // 100), "RowKey": "r%05d" % i, "Qty": i, "Note": note}
            for i in range(count)]


def load(table, entities):
    for start_at in range(0, len(entities), 100):
        table.submit_transaction([("upsert", e) for e in entities[start_at:start_at + 100]])


def everything(service):
    """Every table's entities with their ETags (so Timestamps), by name and key order."""
    out = {}
    for t in sorted(t.name for t in service.list_tables()):
        out[t] = [(e["PartitionKey"], e["RowKey"], dict(e), e.metadata["etag"])
                  for e in service.get_table_client(t).list_entities()]
    return out


# The second name is outside every ANSI code page: on Windows the store's paths must stay UTF-8.
@pytest.mark.parametrize("name", ["data", "donn\u00e9es-\u6570\u636e"])
def test_compact_gives_deleted_space_back_and_keeps_every_entity(tmp_path, name):
    data_dir = str(tmp_path / name)
    server = start(data_dir=data_dir)
    try:
        service = service_client(server)
        load(service.create_table("keep"), rows(500, "k" * 100))
        load(service.create_table("churn"), rows(3000, "c" * 400))
        full = pages(server)
        assert full["page_size_bytes"] > 0
        assert full["pages_live"] * full["page_size_bytes"] > 3000 * 400
        service.delete_table("churn")
        # The reclaimer deletes the entities in the background; the figures are read at most
        # once a second.
        deadline = time.monotonic() + 20
        while True:
            after = pages(server)
            if after["pages_free"] * after["page_size_bytes"] > 3000 * 400:
                break
            assert time.monotonic() < deadline, after
            time.sleep(0.5)
        assert after["pages_live"] < full["pages_live"] / 2
        before = everything(service)

        # A running server holds the directory: refused, one line, nothing changed.
        size = os.path.getsize(os.path.join(data_dir, "data.mdb"))
        refused = compact(data_dir)
        assert refused.returncode == 1
        assert refused.stderr.count("\n") == 1
        assert "stop the server first" in refused.stderr
        assert os.path.getsize(os.path.join(data_dir, "data.mdb")) == size
    finally:
        server.stop()

    done = compact(data_dir)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("compacted %s: data.mdb " % data_dir)
    assert "entities=500" in done.stdout
    assert os.path.getsize(os.path.join(data_dir, "data.mdb")) < size / 2
    # Nothing else is left beside the store's own files (LMDB makes lock.mdb again at open).
    assert sorted(os.listdir(data_dir)) == ["data.mdb", "malachite.lock", "space.reserve"]

    server = start(data_dir=data_dir)
    try:
        service = service_client(server)
        assert everything(service) == before
        compacted = pages(server)
        assert compacted["pages_free"] < 8
        # And it serves writes as before.
        service.get_table_client("keep").create_entity({"PartitionKey": "new", "RowKey": "1"})
        assert service.get_table_client("keep").get_entity("new", "1")["RowKey"] == "1"
    finally:
        server.stop()


@pytest.mark.posix_only("SIGKILLs the compact process itself (under Wine the launcher's wrapper "
                        "would die, not malachite.exe)")
def test_a_compaction_killed_at_any_moment_loses_nothing(tmp_path):
    data_dir = str(tmp_path / "data")
    server = start(data_dir=data_dir)
    try:
        service = service_client(server)
        load(service.create_table("keep"), rows(1000, "k" * 200))
        load(service.create_table("churn"), rows(8000, "c" * 1000))
        service.delete_table("churn")
        before = everything(service)
        # Wait for the reclaimer, so that compaction has pages to leave out.
        deadline = time.monotonic() + 30
        while pages(server)["pages_free"] * 4096 < 8000 * 1000:
            assert time.monotonic() < deadline
            time.sleep(0.5)
    finally:
        server.stop()
    for delay in (0.0, 0.01, 0.03, 0.06, 0.1):
        copy = str(tmp_path / ("copy-%s" % delay))
        shutil.copytree(data_dir, copy)
        process = subprocess.Popen([binary(), "compact", "--data-dir", copy],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
        server = start(data_dir=copy)
        try:
            assert everything(service_client(server)) == before, "killed after %s s" % delay
        finally:
            server.stop()
        done = compact(copy)
        assert done.returncode == 0, done.stderr
        assert sorted(os.listdir(copy)) == ["data.mdb", "malachite.lock", "space.reserve"]


def churn_24_mb(tmp_path, server):
    """A table of 24 MB written by $batch through malachite import, then deleted; returns the
    pages of data.mdb (live + free) with it written, before the delete."""
    churn = tmp_path / "churn.jsonl"
    with open(churn, "w") as f:
        for e in rows(24000, "c" * 1000):
            f.write(json.dumps(e) + "\n")
    subprocess.run([binary(), "import", str(churn), "--table", "churn",
                    "--connection-string", server.connection_string], check=True,
                   capture_output=True, timeout=120)
    time.sleep(1.1)  # /-/metrics reads the pages at most once a second
    full = pages(server)
    service_client(server).delete_table("churn")
    return full["pages_live"] + full["pages_free"]


def compactions(server):
    with urllib.request.urlopen(server.endpoint + "/-/metrics", timeout=10) as r:
        return int(re.search(r"^malachite_store_compactions_total (\d+)$", r.read().decode(),
                             re.M).group(1))


def test_a_restart_compacts_a_store_churn_left_mostly_free(tmp_path):
    data_dir = str(tmp_path / "data")
    # Off while it serves, so that the free pages are still there when it stops.
    server = start(data_dir=data_dir, args=["--compaction", "off"])
    try:
        service = service_client(server)
        load(service.create_table("keep"), rows(300, "k" * 100))
        churn_24_mb(tmp_path, server)
        deadline = time.monotonic() + 30
        while pages(server)["pages_free"] * 4096 < 20 << 20:
            assert time.monotonic() < deadline
            time.sleep(0.5)
        # Still there a check interval (10 s) later: --compaction off holds while serving.
        time.sleep(11)
        assert compactions(server) == 0
        assert pages(server)["pages_free"] * 4096 >= 20 << 20
        before = everything(service)
    finally:
        server.stop()
    server = start(data_dir=data_dir, args=["--log-level", "info"])
    try:
        assert "storage: compacted data.mdb at start" in log(server)
        assert everything(service_client(server)) == before
        compacted = pages(server)
        assert compacted["pages_free"] < 8
        assert compacted["pages_live"] * 4096 < 4 << 20  # what 300 entities take, not 24 MB
    finally:
        server.stop()


def test_a_serving_server_compacts_churn_away_and_loses_nothing(tmp_path):
    data_dir = str(tmp_path / "data")
    server = start(data_dir=data_dir, args=["--log-level", "info"])
    try:
        service = service_client(server)
        keep = service.create_table("keep")
        load(keep, rows(300, "k" * 100))
        # data.mdb's pages, not its size: on Windows the file is as large as the map.
        pages_full = churn_24_mb(tmp_path, server)
        assert pages_full * 4096 > 20 << 20
        # Writes go on while the server checks (every 10 s) and compacts.
        written = 0
        deadline = time.monotonic() + 60
        while compactions(server) == 0:
            assert time.monotonic() < deadline, "no compaction within 60 s: " + log(server)
            keep.create_entity({"PartitionKey": "w", "RowKey": "%06d" % written})
            written += 1
        for _ in range(20):  # and after it
            keep.create_entity({"PartitionKey": "w", "RowKey": "%06d" % written})
            written += 1
        assert "storage: compacted data.mdb while serving" in log(server)
        time.sleep(1.1)  # /-/metrics reads the pages at most once a second
        compacted = pages(server)
        assert compacted["pages_live"] + compacted["pages_free"] < pages_full / 4
        assert compacted["pages_live"] * 4096 < 4 << 20
        before = everything(service)
        assert len(before["keep"]) == 300 + written
        assert "churn" not in before
        crash(server)  # no clean stop's sync: the writes since must be in the new data.mdb
    finally:
        server.stop()
    server = start(data_dir=data_dir)
    try:
        assert everything(service_client(server)) == before
    finally:
        server.stop()


def test_compact_of_a_directory_without_a_store_exits_1(tmp_path):
    refused = compact(str(tmp_path))
    assert refused.returncode == 1
    assert refused.stderr == "malachite compact: data directory %s holds no data.mdb\n" % tmp_path


def test_compact_help_and_bad_usage():
    helped = subprocess.run([binary(), "compact", "--help"], capture_output=True, text=True)
    assert helped.returncode == 0
    assert helped.stdout.startswith("Usage: malachite compact [--data-dir DIR]")
    bad = subprocess.run([binary(), "compact", "extra"], capture_output=True, text=True)
    assert bad.returncode == 2

