"""Operating the server: health endpoints, --probe, --in-memory, config file/env/flags, JSON
access logs and --loose, against the real binary (docs/OPERATIONS.md)."""
import glob
import json
import os
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest
from azure.core.exceptions import HttpResponseError

from conftest import binary, log, service_client, start, stop_checked, unique_name


def http_get(url, headers=None, method="GET", data=None):
    """(status, body) of one plain HTTP request, without raising on 4xx/5xx."""
    request = urllib.request.Request(url, headers=headers or {}, method=method, data=data)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def probe(url):
    return subprocess.run([binary(), "--probe", url], capture_output=True, text=True,
                          timeout=20)


def test_health_endpoints_answer_without_auth_and_probe_exits_by_status(server):
    base = "http://127.0.0.1:%d" % server.port
    assert http_get(base + "/-/healthy") == (200, "ok\n")
    assert http_get(base + "/-/ready") == (200, "ready\n")
    assert http_get(base + "/-/nothing")[0] == 404
    assert http_get(base + "/-/ready", method="POST", data=b"")[0] == 405
    # The Table API next door still insists on auth.
    assert http_get(base + "/devstoreaccount1/Tables")[0] == 403

    assert probe(base + "/-/ready").returncode == 0
    missing = probe(base + "/-/nothing")
    assert missing.returncode == 1 and "404" in missing.stderr
    assert probe("ftp://127.0.0.1/").returncode == 1
    # A closed port: the probe fails quickly instead of hanging.
    started = time.monotonic()
    assert probe("http://127.0.0.1:1/-/ready").returncode == 1
    assert time.monotonic() - started < 10


def _memory_dirs(pid, tmpdir):
    return glob.glob("/dev/shm/malachite-mem-%d-*" % pid) + glob.glob(
        os.path.join(tmpdir, "malachite-mem-%d-*" % pid))


@pytest.mark.posix_only("finds the server's files by its Linux pid and /dev/shm")
@pytest.mark.parametrize("stop", ["sigterm", "kill9"])
def test_in_memory_serves_and_leaves_no_files_behind(tmp_path, stop):
    tmpdir = str(tmp_path / "tmp")
    os.mkdir(tmpdir)
    server = start(args=["--in-memory"], env={"TMPDIR": tmpdir})
    pid = server.pid
    try:
        # The store is open and its files are already unlinked.
        assert _memory_dirs(pid, tmpdir) == []
        with service_client(server) as service:
            table = service.create_table(unique_name("mem"))
            table.create_entity({"PartitionKey": "p", "RowKey": "r", "n": 7})
            assert table.get_entity("p", "r")["n"] == 7
        # The data dir the suite passed is ignored.
        assert os.listdir(server.data_dir) == []
    finally:
        if stop == "kill9":
            server.kill()
        else:
            stop_checked(server)
    assert _memory_dirs(pid, tmpdir) == []
    assert os.listdir(tmpdir) == []


def test_config_file_env_and_flags_combine_with_json_access_logs(tmp_path):
    config = tmp_path / "malachite.conf"
    config.write_text("# operations test\n"
                      "log-format = json\n"
                      "access-log-level = info\n"
                      "explain = true\n"
                      "in-memory = true\n")
    # The environment beats the file (explain off), the flag beats both (log-level info).
    server = start(args=["--config", str(config), "--log-level", "info"],
                   env={"MALACHITE_EXPLAIN": "0"})
    try:
        with service_client(server) as service:
            name = unique_name("cfg")
            table = service.create_table(name)
            table.create_entity({"PartitionKey": "p", "RowKey": "r"})
            list(table.query_entities("PartitionKey eq 'p'"))
        time.sleep(0.2)  # the last access line is written after the response
        lines = [line for line in log(server).splitlines() if line.startswith("{")]
        records = [json.loads(line) for line in lines]  # every log line is one JSON object
        messages = [r["msg"] for r in records]
        assert all(set(r) == {"time", "level", "msg"} for r in records)
        assert any(m.startswith("connection string: DefaultEndpointsProtocol=http;") for m in messages)
        query = [m for m in messages if m.startswith("GET /devstoreaccount1/%s()" % name)]
        assert len(query) == 1, messages
        assert " 200 " in query[0] and "scanned=1 returned=1" in query[0] and " id=" in query[0]
        assert any(m.startswith("POST /devstoreaccount1/Tables 201 ") for m in messages)
    finally:
        stop_checked(server)


def test_explain_from_the_config_file_reaches_responses(tmp_path):
    config = tmp_path / "malachite.conf"
    config.write_text("explain = 1\nin-memory = 1\n")
    server = start(env={"MALACHITE_CONFIG": str(config)})
    try:
        with service_client(server) as service:
            table = service.create_table(unique_name("exp"))
            headers = {}
            list(table.query_entities("PartitionKey eq 'p'",
                                      raw_response_hook=lambda r: headers.update(
                                          r.http_response.headers)))
            assert "x-malachite-query-plan" in {k.lower() for k in headers}
    finally:
        stop_checked(server)


def test_loose_mode_serves_unsigned_requests_with_any_version():
    strict = start(args=["--in-memory"])
    loose = start(args=["--in-memory", "--loose"])
    try:
        body = json.dumps({"TableName": unique_name("loose")}).encode()
        headers = {"Content-Type": "application/json", "x-ms-version": "1999-01-01",
                   "Accept": "application/json;odata=nometadata"}
        url = "http://127.0.0.1:%d/devstoreaccount1/Tables"
        assert http_get(url % strict.port, headers, "POST", body)[0] == 400
        status, _ = http_get(url % loose.port, headers, "POST", body)
        assert status == 201
        del headers["x-ms-version"]
        assert http_get(url % strict.port, headers, "POST", body)[0] == 403
        status, listing = http_get(url % loose.port, headers)
        assert status == 200 and json.loads(body)["TableName"] in listing
        assert "authentication and x-ms-version are not checked" in log(loose)
    finally:
        stop_checked(strict)
        stop_checked(loose)


def test_bad_configuration_exits_2_with_one_line():
    result = subprocess.run([binary(), "--log-format", "xml"], capture_output=True,
                            text=True, timeout=20)
    assert result.returncode == 2
    assert result.stderr == ("malachite: invalid value 'xml' for --log-format "
                             "(expected text or json)\n")
    env = dict(os.environ, MALACHITE_PORT="http")
    result = subprocess.run([binary()], capture_output=True, text=True, timeout=20, env=env)
    assert result.returncode == 2 and "MALACHITE_PORT" in result.stderr
    help_text = subprocess.run([binary(), "--help"], capture_output=True, text=True,
                               timeout=20).stdout
    for option in ("--in-memory", "--loose", "--log-format", "--cert", "MALACHITE_DATA_DIR"):
        assert option in help_text
