"""What a test does when something it needs is missing here (a Docker engine, qemu, a root).

Locally it skips and says why. Where the need is declared (CI sets MALACHITE_DOCKER_REQUIRED=1,
MALACHITE_PACKAGE_REQUIRED=1, MALACHITE_REQUIRE_ARM64=1), the same absence fails the test: CI can
install what is missing, so a skip there would hide a check that never ran.

    from required import unavailable      # tests/support on sys.path (each suite's conftest)
    if not engine_ok:
        unavailable("MALACHITE_DOCKER_REQUIRED", "no Docker engine: " + reason)
"""
import os

import pytest


def is_required(variable):
    """True when the environment variable declaring the need is set to 1."""
    return os.environ.get(variable, "") == "1"


def unavailable(variable, why):
    """Fails the test when `variable` is 1, else skips it; `why` says what is missing and how to get it."""
    if is_required(variable):
        pytest.fail("%s=1 but %s" % (variable, why), pytrace=False)
    pytest.skip(why)
