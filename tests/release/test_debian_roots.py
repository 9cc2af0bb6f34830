"""The bundle in fresh Debian roots (debootstrap --variant=minbase of scripts/debian-rootfs, unpacked
anew for each suite): bullseye (glibc 2.31), bookworm and trixie. The user's first minute: unpack
the bundle with the root's tar, run it, get an answer; bin/azurite-table with Azurite's flags. The
roots and their servers' runs: conftest's debian_roots and azurite_tables; what every server does
(the first answer within 1 s of unpacking, no shared object, not even glibc): test_every_root.py."""
import pytest

import roots


@pytest.fixture(params=roots.DEBIAN_SUITES)
def debian_root(request, debian_roots):
    return debian_roots(request.param)


def test_azurite_table_refuses_a_blob_flag_with_exit_2(debian_root):
    refusal = roots.Refusal("chroot", str(debian_root.root), debian_root.bin_dir + "/azurite-table",
                            "--blobHost", "0.0.0.0")
    problem = refusal.check(2, "--blobHost is an option of Azurite's blob or queue service")
    assert problem is None, "%s: azurite-table --blobHost: %s" % (debian_root.name, problem)
