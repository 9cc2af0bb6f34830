# conftest.py: a server of your own beside the plugin's `malachite`, made by a fixture factory (as
# pytest-postgresql's): each call returns a fixture, named by the name it is assigned to.
from pathlib import Path

from pytest_malachite import factories

# One server per test module, loaded with the fixtures of ./fixtures (and again by reset())...
malachite_seeded = factories.malachite_server(
    scope="module", seed=Path(__file__).with_name("fixtures"), args=["--throttling", "off"])
# ...and, for each test, a fresh account on that server, deleted after the test.
seeded_account = factories.malachite_account("malachite_seeded")
