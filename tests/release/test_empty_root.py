"""A root holding only the bundle's binary, as /malachite: no /proc, /dev, /etc, shell or C library.
`chroot <root> /malachite` serves a fresh /data; for aarch64 the kernel runs it through
qemu-aarch64-static (binfmt_misc), so the root still holds nothing else. The root and its server's
run: conftest's empty_roots; what every server does: test_every_root.py."""
import pytest

import roots


@pytest.fixture(params=["x86_64", "aarch64"])
def empty_root(request, empty_roots):
    return empty_roots(request.param)


def test_root_holds_only_the_binary_and_its_data(empty_root):
    assert empty_root.entries == ["data", "malachite"], \
        "%s holds %s, not only data and malachite" % (empty_root.name, empty_root.entries)


def test_bad_flag_exits_2_with_one_line(empty_root):
    refusal = roots.Refusal("chroot", str(empty_root.root), "/malachite", "--no-such-flag")
    problem = refusal.check(2, "--no-such-flag")
    assert problem is None, "%s: --no-such-flag: %s" % (empty_root.name, problem)


def test_data_directory_under_a_file_exits_1_with_one_line(empty_root):
    refusal = roots.Refusal("chroot", str(empty_root.root), "/malachite", "--host", "127.0.0.1",
                            "--port", "0", "--data-dir", "/malachite/data")
    problem = refusal.check(1, "/malachite/data")
    assert problem is None, "%s: --data-dir /malachite/data (under a file): %s" % (
        empty_root.name, problem)
