"""A root holding only Debian's busybox-static (/bin/busybox of its .deb and the applet links
`busybox --install -s` makes in the chroot; no C library at all): busybox tar unpacks the bundle in
the chroot and the server runs from there; bin/azurite-table, started by busybox sh with Azurite's
flags, serves too. The root and its servers' runs: conftest's busybox_roots and azurite_tables;
what every server does: test_every_root.py."""
import pytest


@pytest.fixture(params=["x86_64", "aarch64"])
def busybox_root(request, busybox_roots):
    return busybox_roots(request.param)


def test_root_holds_no_library(busybox_root):
    assert busybox_root.libraries == [], "%s holds libraries: %s" % (
        busybox_root.name, busybox_root.libraries)
