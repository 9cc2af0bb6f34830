"""HTTPS with --cert/--key: a self-signed certificate made by the openssl CLI at test time, the
Python SDK trusting it through connection_verify, and what happens to clients that do not."""
import shutil
import subprocess
import urllib.error
import urllib.request

import pytest
from azure.core.exceptions import ServiceRequestError
from azure.data.tables import TableServiceClient

from conftest import DEV_ACCOUNT, DEV_KEY, binary, log, start, stop_checked, unique_name

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None,
                                reason="the openssl CLI is needed to make a test certificate")


def make_certificate(directory):
    """A self-signed P-256 certificate for localhost/127.0.0.1: (cert path, key path)."""
    cert, key = str(directory / "cert.pem"), str(directory / "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert,
                    "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    return cert, key


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tls")
    cert, key = make_certificate(directory)
    server = start(args=["--cert", cert, "--key", key, "--log-level", "info"])
    server.cert = cert
    yield server
    stop_checked(server)


def https_connection_string(server):
    return ("DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;"
            "TableEndpoint=https://127.0.0.1:%d/%s;" % (DEV_ACCOUNT, DEV_KEY, server.port, DEV_ACCOUNT))


def test_the_sdk_works_over_https_when_it_trusts_the_certificate(tls_server):
    # The banner's connection string is the https one, ready to copy.
    assert https_connection_string(tls_server) in log(tls_server)
    with TableServiceClient.from_connection_string(
            https_connection_string(tls_server), connection_verify=tls_server.cert,
            retry_total=0) as service:
        name = unique_name("tls")
        table = service.create_table(name)
        table.create_entity({"PartitionKey": "p", "RowKey": "r1", "n": 1})
        table.upsert_entity({"PartitionKey": "p", "RowKey": "r2", "n": 2})
        table.submit_transaction([("upsert", {"PartitionKey": "p", "RowKey": "r3", "n": 3})])
        assert [e["n"] for e in table.query_entities("PartitionKey eq 'p'")] == [1, 2, 3]
        assert name in [t.name for t in service.list_tables()]
        # odata links are built with the scheme the request came in on.
        assert table.get_entity("p", "r1")["n"] == 1
        service.delete_table(name)


def test_clients_that_do_not_trust_it_or_speak_plain_http_are_refused_and_the_server_carries_on(
        tls_server):
    with TableServiceClient.from_connection_string(https_connection_string(tls_server),
                                                   retry_total=0) as untrusting:
        with pytest.raises(ServiceRequestError):
            untrusting.create_table(unique_name("no"))
    # Plain HTTP on the HTTPS port: a 400 that says what is wrong, not a reset.
    request = urllib.request.Request("http://127.0.0.1:%d/devstoreaccount1/Tables" % tls_server.port)
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(request, timeout=10)
    assert error.value.code == 400
    assert error.value.read().decode() == (
        "This port serves HTTPS: use https:// (DefaultEndpointsProtocol=https).\n")
    # The probe speaks TLS without checking the certificate (it talks to its own server).
    url = "https://127.0.0.1:%d/-/ready" % tls_server.port
    assert subprocess.run([binary(), "--probe", url], timeout=20).returncode == 0
    assert tls_server.running


def test_an_unreadable_certificate_stops_startup_with_a_clear_message(tmp_path):
    key = tmp_path / "key.pem"
    key.write_text("not a key")
    result = subprocess.run([binary(), "--port", "0", "--in-memory", "--cert",
                             str(tmp_path / "missing.pem"), "--key", str(key)],
                            capture_output=True, text=True, timeout=20)
    assert result.returncode == 2  # a bad flag: nothing started
    assert "cannot load --cert" in result.stderr
