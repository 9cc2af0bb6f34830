"""The admin endpoints refuse non-loopback clients without credentials (docs/OPERATIONS.md, "Use the admin endpoints").

The refusal has to be seen from an address that is not loopback, so the checks run in a network
namespace the test creates (netns_admin_probe.py, under `unshare --net`: root only; otherwise
the test skips and says why, and the rule is still covered by
tests/unit/server/admin/admin_access_test.cc).
"""
import json
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def _why_not():
    if os.geteuid() != 0:
        return "not root: a network namespace needs root (CI runs as root)"
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            return "%s is missing (util-linux, iproute2)" % tool
    return None


@pytest.fixture(scope="module")
def results():
    why = _why_not()
    if why:
        pytest.skip(why)
    run = subprocess.run(["unshare", "--net", sys.executable, os.path.join(HERE, "netns_admin_probe.py")],
                         capture_output=True, text=True, timeout=120, cwd=HERE)
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(run.stdout)


@pytest.mark.posix_only("a network namespace (unshare --net): Wine makes sockets in its wineserver, "
                        "which stays in the namespace it started in")
def test_a_non_loopback_client_without_credentials_is_refused_except_for_health_probes(results):
    r = results["default"]
    assert r["loopback metrics"] == 200
    assert r["outside metrics"] == 401
    assert r["outside partitions"] == 401
    assert r["outside faults"] == 401
    assert r["outside clear faults"] == 401
    assert r["outside unknown"] == 401
    assert r["outside healthy"] == 200
    assert r["outside ready"] == 200
    assert r["outside table api unsigned"] == 403


@pytest.mark.posix_only("a network namespace (unshare --net): Wine makes sockets in its wineserver, "
                        "which stays in the namespace it started in")
def test_the_account_key_as_bearer_basic_or_a_shared_key_signature_admits_it(results):
    r = results["default"]
    assert r["outside bearer"] == 200
    assert r["outside basic"] == 200
    assert r["outside shared key"] == 200
    assert r["outside wrong bearer"] == 403


@pytest.mark.posix_only("a network namespace (unshare --net): Wine makes sockets in its wineserver, "
                        "which stays in the namespace it started in")
@pytest.mark.parametrize("flags", ["--admin-open", "--loose"])
def test_admin_open_and_loose_open_the_admin_endpoints(results, flags):
    r = results[flags]
    assert r["outside metrics"] == 200
    assert r["outside faults"] == 200


def _admin(server, method, path, headers):
    import urllib.error
    import urllib.request
    url = server.endpoint + path
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method=method, headers=headers), timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def test_a_browser_page_of_another_site_cannot_reset_or_fault_through_loopback(server, service):
    """A page of another site can make a browser POST to 127.0.0.1 without a preflight; a rebound
    DNS name makes it same-origin. Neither gets the loopback pass (scripts, which send no Origin,
    still do)."""
    service.create_table("keepme")
    host = server.endpoint.split("/")[2]
    evil = {"Origin": "https://evil.example", "Host": host}
    assert _admin(server, "POST", "/-/reset?seed=false", evil) == 403
    assert _admin(server, "POST", "/-/faults", dict(evil, **{"Content-Type": "application/json"})) == 403
    assert _admin(server, "GET", "/-/partitions", {"Sec-Fetch-Site": "cross-site"}) == 403
    rebound = {"Host": "evil.example:%s" % host.split(":")[1], "Origin": "http://evil.example:%s" % host.split(":")[1]}
    assert _admin(server, "POST", "/-/reset?seed=false", rebound) == 403
    assert [t.name for t in service.list_tables() if t.name == "keepme"] == ["keepme"]
    # The explorer's own page (same origin, loopback name) and scripts (no Origin) are admitted.
    assert _admin(server, "GET", "/-/metrics", {"Origin": "http://" + host, "Sec-Fetch-Site": "same-origin"}) == 200
    assert _admin(server, "POST", "/-/reset?seed=false", {}) == 200
    assert [t.name for t in service.list_tables() if t.name == "keepme"] == []
