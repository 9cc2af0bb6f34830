"""Azure CLI smoke test: `az storage table ...` and `az storage entity ...` with
--connection-string against the server (Debian's azure-cli package: it is a large install, so
scripts/install-deps adds it only with MALACHITE_INSTALL_AZ=1; without `az` this module skips)."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import unique_name

AZ = shutil.which("az")
pytestmark = pytest.mark.skipif(
    AZ is None, reason="Azure CLI not installed (MALACHITE_INSTALL_AZ=1 scripts/install-deps)")


@pytest.fixture(scope="module")
def az(tmp_path_factory, server):
    # A private config dir: no telemetry, no prompts, nothing written to the user's ~/.azure.
    env = dict(os.environ, AZURE_CONFIG_DIR=str(tmp_path_factory.mktemp("azure")),
               AZURE_CORE_COLLECT_TELEMETRY="0", AZURE_CORE_NO_COLOR="1",
               AZURE_CORE_ONLY_SHOW_ERRORS="1")

    def run(*args):
        result = subprocess.run([AZ, "storage", *args, "--connection-string",
                                 server.connection_string, "-o", "json"],
                                capture_output=True, text=True, timeout=120, env=env)
        assert result.returncode == 0, "az storage %s failed:\n%s" % (" ".join(args), result.stderr)
        return json.loads(result.stdout) if result.stdout.strip() else None

    return run


def test_az_storage_table_and_entity_commands(az):
    name = unique_name("cli")
    assert az("table", "create", "--name", name) == {"created": True}
    assert name in [t["name"] for t in az("table", "list")]
    az("entity", "insert", "-t", name, "-e", "PartitionKey=p", "RowKey=r", "Name=widget",
       "Count=3", "Count@odata.type=Edm.Int32")
    entity = az("entity", "show", "-t", name, "--partition-key", "p", "--row-key", "r")
    assert {k: entity[k] for k in ("PartitionKey", "RowKey", "Name", "Count")} == {
        "PartitionKey": "p", "RowKey": "r", "Name": "widget", "Count": 3}
    query = az("entity", "query", "-t", name, "--filter", "Count eq 3")
    assert [e["RowKey"] for e in query["items"]] == ["r"]
    az("table", "delete", "--name", name)
    assert name not in [t["name"] for t in az("table", "list")]
