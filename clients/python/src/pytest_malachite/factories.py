"""Fixture factories, as pytest-postgresql's `factories`: each call returns a fixture, which a
conftest.py assigns to a name of its choosing (the name is the fixture's).

    from pytest_malachite import factories

    malachite_seeded = factories.malachite_server(scope="module", seed="tests/fixtures")
    seeded_account = factories.malachite_account("malachite_seeded")

The plugin's own `malachite` and `malachite_account` fixtures are made by these two calls with
their defaults.
"""
from __future__ import annotations

import os
import signal
import threading
import time
import warnings
from pathlib import Path
from typing import Callable, Iterator, List, Literal, Mapping, Optional, Sequence, Tuple

import pytest

from ._errors import MalachiteAdminError
from ._server import Account, Malachite, PathLike, start_malachite

Scope = Literal["session", "package", "module", "class", "function"]
_SCOPES = ("session", "package", "module", "class", "function")


def malachite_server(scope: Scope = "session", *, port: int = 0, in_memory: bool = True,
                     data_dir: Optional[PathLike] = None, seed: Optional[PathLike] = None,
                     args: Sequence[str] = (), binary: Optional[PathLike] = None,
                     start_timeout: float = 10.0, env: Optional[Mapping[str, str]] = None,
                     log_file: Optional[PathLike] = None
                     ) -> Callable[[pytest.FixtureRequest], Iterator[Malachite]]:
    """Returns a fixture of `scope` that starts a Malachite server (start_malachite) and stops it
    at the end of that scope; under pytest-xdist each worker has its own, stopped as soon as the
    main pytest process is gone.

    seed and binary: None (default) takes the command line's --malachite-seed / --malachite-binary
    (or the ini keys malachite_seed / malachite_binary; then $MALACHITE_BINARY, the wheel's own
    binary). args: more malachite flags, after those of --malachite-arg / malachite_args (so these
    win). port, in_memory, data_dir, start_timeout, env, log_file: as start_malachite's. A relative
    seed, data_dir, binary or log_file is relative to pytest's rootdir (where its ini file is),
    wherever pytest runs.

    Raises ValueError for an unknown scope, TypeError for args that are not a sequence of strings;
    the fixture raises MalachiteBinaryError and MalachiteStartError as start_malachite does.
    """
    if scope not in _SCOPES:
        raise ValueError("malachite_server(scope=%r): one of %s" % (scope, ", ".join(_SCOPES)))
    if isinstance(args, str) or not all(isinstance(a, str) for a in args):
        raise TypeError("malachite_server(args=%r): a list of flags, e.g. [\"--throttling\", "
                        "\"off\"]" % (args,))
    extra_args = list(args)
    extra_env = dict(env) if env is not None else None

    def malachite_server_fixture(request: pytest.FixtureRequest) -> Iterator[Malachite]:
        configured_binary, configured_seed, configured_args = _settings(request.config)
        root = Path(request.config.rootpath)
        server = start_malachite(
            port=port, in_memory=in_memory,
            data_dir=root / data_dir if data_dir is not None else None,
            seed=root / seed if seed is not None else configured_seed,
            args=configured_args + extra_args,
            binary=root / binary if binary is not None else configured_binary,
            start_timeout=start_timeout, env=extra_env,
            log_file=root / log_file if log_file is not None else None)
        if os.environ.get("PYTEST_XDIST_WORKER"):
            _stop_when_parent_dies(server)
        try:
            yield server
        finally:
            status = server.stop()
            if status not in (0, -signal.SIGTERM):
                warnings.warn("malachite exited with status %s; its last lines:\n%s"
                              % (status, server.output()), RuntimeWarning)

    malachite_server_fixture.__doc__ = (
        "A Malachite server (in memory unless data_dir is given), one per %s%s; made by "
        "pytest_malachite.factories.malachite_server()."
        % (scope, " (per worker under pytest-xdist)" if scope == "session" else ""))
    return pytest.fixture(scope=scope)(malachite_server_fixture)


def malachite_account(server: str = "malachite"
                      ) -> Callable[[pytest.FixtureRequest], Iterator[Account]]:
    """Returns a function-scoped fixture: a fresh account on the server fixture named `server`
    (default: the plugin's `malachite`), for one test alone, deleted after it (an account the test
    deleted itself is fine)."""

    def malachite_account_fixture(request: pytest.FixtureRequest) -> Iterator[Account]:
        owner: Malachite = request.getfixturevalue(server)
        account = owner.create_account()
        try:
            yield account
        finally:
            try:
                account.delete()
            except MalachiteAdminError as e:
                if e.status != 404:  # the test deleted it itself
                    raise

    malachite_account_fixture.__doc__ = (
        "A fresh account of the %r server, for this test alone; deleted afterwards." % server)
    return pytest.fixture(malachite_account_fixture)


def _settings(config: pytest.Config) -> Tuple[Optional[str], Optional[str], List[str]]:
    """(binary, seed, args) of the command line, else the ini keys (paths relative to the ini
    file); the args of both, ini first."""
    binary = config.getoption("malachite_binary") or _ini_path(config, "malachite_binary")
    seed = config.getoption("malachite_seed") or _ini_path(config, "malachite_seed")
    args: List[str] = list(config.getini("malachite_args")) + list(
        config.getoption("malachite_args") or [])
    return binary, seed, args


def _ini_path(config: pytest.Config, name: str) -> Optional[str]:
    value = config.getini(name)
    if not value:
        return None
    base = Path(config.inipath).parent if config.inipath else Path(config.rootpath)
    return str(base / str(value))


def _stop_when_parent_dies(server: Malachite) -> None:
    """Under pytest-xdist the server's lifeline is a worker process, which outlives a SIGKILLed
    main process by seconds (execnet waits 5 s for the running test, then interrupts it). The
    worker's parent is that main process: once it is gone, stop the server at once. (On Windows
    getppid() keeps the id of a parent that died: there the server stops with the worker.)"""
    parent = os.getppid()

    def watch() -> None:
        while server.running:
            if os.getppid() != parent:
                server.stop()
                return
            time.sleep(0.05)

    threading.Thread(target=watch, name="malachite-parent-watch", daemon=True).start()
