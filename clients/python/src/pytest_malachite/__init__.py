"""pytest-malachite: the Malachite Azure Table storage emulator, started by your tests.

    from pytest_malachite import start_malachite

    with start_malachite() as server:
        account = server.create_account()          # its own tables, isolated from other tests
        TableServiceClient.from_connection_string(account.connection_string)

As a pytest plugin (loaded automatically once installed) it gives the fixtures `malachite` (one
server per test session, or per xdist worker), `malachite_account` (a fresh account per test,
deleted afterwards) and `malachite_connection_string` (that account's connection string). More
servers (another scope, seed or flags) and accounts on them come from the fixture factories of
`pytest_malachite.factories`, assigned to names in a conftest.py:

    malachite_seeded = factories.malachite_server(scope="module", seed="tests/fixtures")

resolve_binary() says which binary start_malachite would run (for its command-line tools, such as
`malachite import`), or raises MalachiteBinaryError.
"""
from ._errors import (MalachiteAdminError, MalachiteBinaryError, MalachiteError,
                      MalachiteStartError)
from ._binary import resolve_binary
from ._server import DEV_ACCOUNT, DEV_KEY, Account, Malachite, start_malachite

try:
    from ._version import __version__
except ImportError:  # a source checkout: clients/python/build-wheel stamps the version
    __version__ = "0+unknown"

__all__ = [
    "Account", "DEV_ACCOUNT", "DEV_KEY", "Malachite", "MalachiteAdminError",
    "MalachiteBinaryError", "MalachiteError", "MalachiteStartError", "__version__",
    "resolve_binary", "start_malachite",
]
