"""The pytest plugin (entry point pytest11 'malachite'): fixtures and options.

Fixtures: `malachite` (session: one server per test session; under pytest-xdist one per worker),
`malachite_account` (function: a fresh account, deleted after the test), `malachite_connection_string`
(function: that account's connection string).
Options: --malachite-binary PATH, --malachite-seed DIR, --malachite-arg FLAG (repeatable); ini keys
malachite_binary, malachite_seed (relative to the ini file), malachite_args. The command line wins.
"""
from __future__ import annotations

import os
import signal
import threading
import time
import warnings
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

import pytest

from ._binary import resolve_binary
from ._errors import MalachiteAdminError, MalachiteError
from ._server import Account, Malachite, start_malachite


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


def _ini_path(config: pytest.Config, name: str) -> Optional[str]:
    value = config.getini(name)
    if not value:
        return None
    base = Path(config.inipath).parent if config.inipath else Path(config.rootpath)
    return str(base / str(value))


def _settings(config: pytest.Config) -> Tuple[Optional[str], Optional[str], List[str]]:
    binary = config.getoption("malachite_binary") or _ini_path(config, "malachite_binary")
    seed = config.getoption("malachite_seed") or _ini_path(config, "malachite_seed")
    args: List[str] = list(config.getini("malachite_args")) + list(
        config.getoption("malachite_args") or [])
    return binary, seed, args


def pytest_report_header(config: pytest.Config) -> str:
    binary, _, _ = _settings(config)
    try:
        path, source = resolve_binary(binary)
    except MalachiteError as e:
        return "malachite: %s" % e
    return "malachite: %s (%s)" % (path, source)


@pytest.fixture(scope="session")
def malachite(pytestconfig: pytest.Config) -> Iterator[Malachite]:
    """The Malachite server of this test session (of this worker, under pytest-xdist), in memory."""
    binary, seed, args = _settings(pytestconfig)
    server = start_malachite(binary=binary, seed=seed, args=args)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        _stop_when_parent_dies(server)
    try:
        yield server
    finally:
        status = server.stop()
        if status not in (0, -signal.SIGTERM):
            warnings.warn("malachite exited with status %s; its last lines:\n%s"
                          % (status, server.output()), RuntimeWarning)


def _stop_when_parent_dies(server: Malachite) -> None:
    """Under pytest-xdist the server's lifeline is a worker process, which outlives a SIGKILLed
    main process by seconds (execnet waits 5 s for the running test, then interrupts it). The
    worker's parent is that main process: once it is gone, stop the server at once."""
    parent = os.getppid()

    def watch() -> None:
        while server.running:
            if os.getppid() != parent:
                server.stop()
                return
            time.sleep(0.05)

    threading.Thread(target=watch, name="malachite-parent-watch", daemon=True).start()


@pytest.fixture
def malachite_account(malachite: Malachite) -> Iterator[Account]:
    """A fresh account of the session's server, for this test alone; deleted afterwards."""
    account = malachite.create_account()
    try:
        yield account
    finally:
        try:
            account.delete()
        except MalachiteAdminError as e:
            if e.status != 404:  # the test deleted it itself
                raise


@pytest.fixture
def malachite_connection_string(malachite_account: Account) -> str:
    """The connection string of this test's own account (see malachite_account)."""
    return malachite_account.connection_string
