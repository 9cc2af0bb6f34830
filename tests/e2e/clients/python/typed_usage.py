"""Checked by test_wheel.py with mypy --strict against the installed wheel (not run):
the package's py.typed marker and annotations reach a user's type checker."""
from typing import Dict, Iterator

import pytest

from pytest_malachite import Account, Malachite, MalachiteAdminError, factories, start_malachite


def account_endpoints() -> Dict[str, str]:
    with start_malachite(port=0, seed="fixtures", args=["--throttling", "off"]) as server:
        account: Account = server.create_account(name="orders", key=None)
        try:
            server.delete_account("devstoreaccount1")
        except MalachiteAdminError as refused:
            code: str = refused.code
            status: int = refused.status
            assert (status, code) == (409, "OperationNotAllowed")
        summary = server.reset(account=account.name, seed=False)
        account.delete()
        return {"table_url": account.table_url, "dev": server.connection_string,
                "tables_deleted": str(summary["tables_deleted"]), "port": str(server.port)}


@pytest.fixture
def orders_account(malachite: Malachite) -> Iterator[Account]:
    with malachite.create_account() as account:
        yield account


# The fixture factories' fixtures, as a conftest.py names them; a scope pytest has not is an error.
malachite_seeded = factories.malachite_server(scope="module", seed="fixtures",
                                              args=["--throttling", "off"])
seeded_account = factories.malachite_account("malachite_seeded")
per_worker = factories.malachite_server(scope="worker")  # type: ignore[arg-type]
