"""The pytest plugin (entry point pytest11 'malachite'): fixtures and options.

Fixtures: `malachite` (session: one server per test session; under pytest-xdist one per worker),
`malachite_account` (function: a fresh account, deleted after the test), `malachite_connection_string`
(function: that account's connection string). The first two are made by the fixture factories
(pytest_malachite.factories) with their defaults; a conftest.py makes more servers and accounts
with them.
Options: --malachite-binary PATH, --malachite-seed DIR, --malachite-arg FLAG (repeatable); ini keys
malachite_binary, malachite_seed (relative to the ini file), malachite_args. The command line wins.
"""
from __future__ import annotations

import pytest

from . import factories
from ._binary import resolve_binary
from ._errors import MalachiteError
from ._server import Account


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("malachite", "Malachite (Azure Table storage emulator)")
    group.addoption("--malachite-binary", dest="malachite_binary", metavar="PATH", default=None,
                    help="the malachite binary to run (default: $MALACHITE_BINARY, else the "
                         "wheel's own)")
    group.addoption("--malachite-seed", dest="malachite_seed", metavar="DIR", default=None,
                    help="load the <table>.jsonl/.csv fixtures of DIR at start "
                         "(malachite --seed); malachite.reset() restores them")
    group.addoption("--malachite-arg", dest="malachite_args", metavar="FLAG", action="append",
                    default=None, help="one more malachite flag (repeatable), e.g. "
                                       "--malachite-arg=--throttling=off")
    parser.addini("malachite_binary", "the malachite binary to run (relative to the ini file)",
                  default=None)
    parser.addini("malachite_seed", "a --seed fixtures directory (relative to the ini file)",
                  default=None)
    parser.addini("malachite_args", "more malachite flags", type="args", default=[])


def pytest_report_header(config: pytest.Config) -> str:
    binary, _, _ = factories._settings(config)
    try:
        path, source = resolve_binary(binary)
    except MalachiteError as e:
        return "malachite: %s" % e
    return "malachite: %s (%s)" % (path, source)


# The plugin's own fixtures are the factories' defaults: one owner for how a server starts and stops.
malachite = factories.malachite_server(scope="session")
malachite_account = factories.malachite_account("malachite")


@pytest.fixture
def malachite_connection_string(malachite_account: Account) -> str:
    """The connection string of this test's own account (see malachite_account)."""
    return malachite_account.connection_string
