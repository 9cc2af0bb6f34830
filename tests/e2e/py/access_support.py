"""Helpers for the host-style and Entra ID suites: a certificate for localhost and the account host
names, *.localhost resolution for this process (Python asks getaddrinfo, which on Debian knows only
"localhost" itself), test JWTs and a TokenCredential."""
import base64
import contextlib
import json
import socket
import subprocess
import time

from azure.core.credentials import AccessToken

TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47"
OTHER_TENANT = "0b3f0c5e-1d2a-4c6b-9e8f-123456789abc"
STORAGE_SCOPE = "https://storage.azure.com/.default"


def make_certificate(directory):
    """A self-signed P-256 certificate for localhost, 127.0.0.1 and the dev account's host names:
    (cert path, key path)."""
    cert, key = str(directory / "cert.pem"), str(directory / "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert,
                    "-days", "2", "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,DNS:devstoreaccount1.localhost,"
                    "DNS:devstoreaccount1-secondary.localhost,IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    return cert, key


@contextlib.contextmanager
def localhost_resolves_to_loopback():
    """Within the block, names ending in .localhost resolve to 127.0.0.1 for this process
    (urllib3 connects through socket.getaddrinfo); TLS still checks the name in the URL."""
    real = socket.getaddrinfo

    def lookup(host, *args, **kwargs):
        if isinstance(host, str) and host.endswith(".localhost"):
            host = "127.0.0.1"
        return real(host, *args, **kwargs)

    socket.getaddrinfo = lookup
    try:
        yield
    finally:
        socket.getaddrinfo = real


def _segment(value):
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


def mint_token(**claims):
    """An unsigned JWT with the claims of a valid Entra ID v1 token for Azure Storage, changed by
    `claims` (None removes one). Malachite without --oauth-issuer-keys does not check signatures."""
    now = int(time.time())
    body = {"aud": "https://storage.azure.com", "iss": "https://sts.windows.net/%s/" % TENANT,
            "tid": TENANT, "oid": "00000000-0000-0000-0000-00000000c0de", "iat": now - 60,
            "nbf": now - 60, "exp": now + 3600}
    body.update(claims)
    body = {name: value for name, value in body.items() if value is not None}
    return "%s.%s.%s" % (_segment({"typ": "JWT", "alg": "RS256", "kid": "test"}), _segment(body),
                         base64.urlsafe_b64encode(b"unsigned").rstrip(b"=").decode())


class StaticTokenCredential:
    """A TokenCredential (what DefaultAzureCredential is): get_token(*scopes, **kwargs). `token`
    is a string, or a function of the tenant_id the SDK asks for (None at first, the challenge's
    tenant after a 401). Calls are recorded in `calls`."""

    def __init__(self, token):
        self.token = token
        self.calls = []

    def get_token(self, *scopes, **kwargs):
        tenant = kwargs.get("tenant_id")
        self.calls.append((scopes, tenant))
        token = self.token(tenant) if callable(self.token) else self.token
        return AccessToken(token, int(time.time()) + 3600)
