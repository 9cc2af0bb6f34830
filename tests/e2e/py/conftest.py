"""Fixtures for the Python SDK suites: each test module gets its own server (MalachiteServer from
tests/support/malachite_server.py: the real binary on a free port with a temp data dir), stopped
by PID when the module ends; a server that exited abnormally (a crash, a sanitizer report) fails
the module.
"""
import os
import sys
import uuid

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "support"))
from malachite_server import (  # noqa: E402,F401  (path set just above; re-exported to the suites)
    DEV_ACCOUNT, DEV_KEY, MalachiteServer, binary_path, stop_checked)


@pytest.fixture(scope="module")
def server():
    srv = MalachiteServer().start()
    yield srv
    stop_checked(srv)


@pytest.fixture(scope="module")
def service(server):
    with server.service_client() as client:
        yield client


def unique_name(prefix="t"):
    return prefix + uuid.uuid4().hex[:16]


@pytest.fixture
def table(service):
    """A fresh table's TableClient; the table is deleted afterwards."""
    name = unique_name("py")
    client = service.create_table(name)
    yield client
    service.delete_table(name)


def wire_error_code(exc):
    """The Azure error code the server sent (odata.error.code in the body, else x-ms-error-code)."""
    import json
    response = getattr(exc, "response", None)
    if response is None:
        return None
    try:
        return json.loads(response.text())["odata.error"]["code"]
    except (ValueError, KeyError, TypeError):
        return response.headers.get("x-ms-error-code")
