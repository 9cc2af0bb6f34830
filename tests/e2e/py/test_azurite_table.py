"""`azurite-table`: the binary under the name of Azurite's table command takes Azurite's flags and
variables (config/azurite_args.h), and the Python SDK sees the service it expects. It runs as
Azurite's users run it, not through pytest_malachite: under this name it takes Azurite's flags
only, and the ready line it prints (Azurite's) is part of what is checked."""
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request

import pytest
from azure.core.exceptions import ClientAuthenticationError
from azure.data.tables import TableServiceClient

from conftest import DEV_ACCOUNT, DEV_KEY, binary, unique_name

_READY = re.compile(r"^Azurite Table service successfully started on ([0-9.]+):(\d+)$", re.M)
EXTRA_KEY = "ZXh0cmEta2V5LWZvci1henVyaXRlLWFjY291bnRzLXRlc3Q="

pytestmark = pytest.mark.posix_only("runs the binary through a link named azurite-table, as the Linux bundle's bin/azurite-table; the Windows zip has no such link (malachite.exe azurite-table ... is the Windows form)")


class AzuriteTable:
    """`azurite-table <args>` run through a link of that name, in `workdir`."""

    def __init__(self, workdir, args, env=None):
        self.workdir = workdir
        link = workdir / "azurite-table"
        if not link.exists():
            os.symlink(binary(), link)
        self.log_path = workdir / ("azurite-table-%d.log" % time.monotonic_ns())
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [str(link)] + list(args), cwd=workdir, stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT, env=dict(os.environ, **(env or {})))
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            match = _READY.search(self.log())
            if match:
                self.port = int(match.group(2))
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        self.process.kill()
        raise RuntimeError("azurite-table did not get ready; log:\n" + self.log())

    def log(self):
        return self.log_path.read_text(errors="replace")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=10)

    def connection_string(self, scheme="http", account=DEV_ACCOUNT, key=DEV_KEY):
        return ("DefaultEndpointsProtocol=%s;AccountName=%s;AccountKey=%s;"
                "TableEndpoint=%s://127.0.0.1:%d/%s;" % (scheme, account, key, scheme, self.port, account))


def refusal(workdir, args, env=None):
    """Runs azurite-table expecting a refusal: (exit status, stderr lines)."""
    link = workdir / "azurite-table"
    if not link.exists():
        os.symlink(binary(), link)
    done = subprocess.run([str(link)] + list(args), cwd=workdir, capture_output=True, text=True,
                          timeout=20, env=dict(os.environ, **(env or {})))
    return done.returncode, done.stderr.splitlines()


def crud(connection_string, **kwargs):
    with TableServiceClient.from_connection_string(connection_string, retry_total=0, **kwargs) as service:
        name = unique_name("az")
        table = service.create_table(name)
        table.create_entity({"PartitionKey": "p", "RowKey": "1", "Amount": 12.5})
        table.submit_transaction([("upsert", {"PartitionKey": "p", "RowKey": str(i)}) for i in range(2, 5)])
        rows = list(table.query_entities("PartitionKey eq 'p'", results_per_page=2))
        service.delete_table(name)
        return [row["RowKey"] for row in rows]


def test_azurites_flags_serve_the_sdk_with_azurites_lines_and_data_under_location(tmp_path):
    server = AzuriteTable(tmp_path, ["--tableHost", "127.0.0.1", "--tablePort", "0", "-l", "ws",
                                     "--skipApiVersionCheck", "--loose", "--disableProductStyleUrl"])
    assert crud(server.connection_string()) == ["1", "2", "3", "4"]
    assert server.stop() == 0
    log = server.log()
    assert "Azurite Table service is starting on 127.0.0.1:0" in log
    assert log.index("Azurite Table service is closing...") < log.index(
        "Azurite Table service successfully closed")
    # One warning for the flag with no effect; the access log is on (no --silent), as in Azurite.
    assert "--loose: no effect" in log
    assert re.search(r"\] POST /devstoreaccount1/Tables 201 ", log), log
    assert (tmp_path / "ws" / "__malachite_table__" / "data.mdb").exists()


def test_without_location_the_working_directory_is_the_workspace_and_silent_means_no_access_log(tmp_path):
    server = AzuriteTable(tmp_path, ["--tablePort", "0", "-s"])
    assert crud(server.connection_string()) == ["1", "2", "3", "4"]
    assert server.stop() == 0
    assert (tmp_path / "__malachite_table__" / "data.mdb").exists()
    assert " 201 " not in server.log()


def test_azurite_accounts_replace_the_default_account(tmp_path):
    accounts = "extra1:%s;extra2:%s:%s" % (EXTRA_KEY, EXTRA_KEY, DEV_KEY)
    server = AzuriteTable(tmp_path, ["--tablePort", "0", "--inMemoryPersistence"],
                          env={"AZURITE_ACCOUNTS": accounts})
    try:
        assert crud(server.connection_string(account="extra1", key=EXTRA_KEY)) == ["1", "2", "3", "4"]
        # The second key of extra2 works too.
        assert crud(server.connection_string(account="extra2", key=DEV_KEY)) == ["1", "2", "3", "4"]
        # Azurite: devstoreaccount1 is gone once AZURITE_ACCOUNTS lists accounts.
        with pytest.raises(ClientAuthenticationError):
            crud(server.connection_string())
    finally:
        assert server.stop() == 0
    assert not (tmp_path / "__malachite_table__").exists()  # in memory

    status, lines = refusal(tmp_path, ["--tablePort", "0"], env={"AZURITE_ACCOUNTS": "extra1"})
    assert (status, lines) == (2, ["azurite-table: AZURITE_ACCOUNTS: entry 'extra1' is not name:key"])


def test_skip_api_version_check_keeps_authentication(tmp_path):
    def unsigned_status(port):
        request = urllib.request.Request("http://127.0.0.1:%d/devstoreaccount1/Tables" % port,
                                         headers={"x-ms-version": "2099-99-99"})
        try:
            urllib.request.urlopen(request, timeout=10)
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("x-ms-error-code")
        return 200, None

    strict = AzuriteTable(tmp_path, ["--tablePort", "0", "--inMemoryPersistence"])
    try:
        assert unsigned_status(strict.port) == (400, "InvalidHeaderValue")
    finally:
        strict.stop()
    skipping = AzuriteTable(tmp_path, ["--tablePort", "0", "--inMemoryPersistence"],
                            env={"AZURITE_SKIP_API_VERSION_CHECK": "true"})
    try:
        # Past the version check, and refused by authentication (unlike Malachite's --loose).
        assert unsigned_status(skipping.port)[0] == 403
    finally:
        skipping.stop()


@pytest.mark.skipif(shutil.which("openssl") is None,
                    reason="the openssl CLI is needed to make a test certificate")
def test_a_pfx_certificate_with_its_password_serves_https_and_a_wrong_password_stops_startup(tmp_path):
    cert, key, pfx = tmp_path / "cert.pem", tmp_path / "key.pem", tmp_path / "cert.pfx"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    subprocess.run(["openssl", "pkcs12", "-export", "-inkey", str(key), "-in", str(cert),
                    "-out", str(pfx), "-passout", "pass:s3cret"], check=True, capture_output=True,
                   timeout=60)
    debug = tmp_path / "logs" / "debug.log"
    os.makedirs(debug.parent)
    server = AzuriteTable(tmp_path, ["--tablePort", "0", "--inMemoryPersistence", "--cert", str(pfx),
                                     "--pwd", "s3cret", "--silent", "--debug", str(debug)])
    try:
        assert crud(server.connection_string("https"), connection_verify=str(cert)) == ["1", "2", "3", "4"]
    finally:
        assert server.stop() == 0
    # The debug log has the access log, which --silent keeps off the console.
    assert re.search(r"\] POST /devstoreaccount1/Tables 201 ", debug.read_text())
    assert " 201 " not in server.log()

    status, lines = refusal(tmp_path, ["--tablePort", "0", "--cert", str(pfx), "--pwd", "nope"])
    assert status == 2
    assert lines == ["malachite: --cert-password does not open --cert '%s' (wrong password)" % pfx]
