"""Host-style URLs (spec §1.1) with azure-data-tables: http://devstoreaccount1.localhost:<port>
addresses the account as https://<account>.table.core.windows.net does on Azure. Python does not
resolve *.localhost by itself, so the tests map it to 127.0.0.1 for this process
(access_support.localhost_resolves_to_loopback); Host header and signature are the host-style ones.
A path that starts with a known account is path style on any host (the compose alias case)."""
import json
import urllib.request

import pytest
from azure.core.credentials import AzureNamedKeyCredential
from azure.core.exceptions import ClientAuthenticationError, HttpResponseError, ResourceNotFoundError
from azure.data.tables import TableClient, TableServiceClient, UpdateMode

from access_support import localhost_resolves_to_loopback
from conftest import (DEV_ACCOUNT, DEV_KEY, service_client, start, stop_checked, unique_name,
                      wire_error_code)


@pytest.fixture(scope="module")
def servers():
    on = start(args=["--in-memory"])
    off = start(args=["--in-memory", "--host-style", "off"])
    yield on, off
    stop_checked(on)
    stop_checked(off)


@pytest.fixture(autouse=True)
def loopback():
    with localhost_resolves_to_loopback():
        yield


def host_url(server):
    return "http://%s.localhost:%d" % (DEV_ACCOUNT, server.port)


def connection_string(server):
    return ("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;TableEndpoint=%s;"
            % (DEV_ACCOUNT, DEV_KEY, host_url(server)))


def test_a_host_style_connection_string_works_for_tables_entities_and_batches(servers):
    server, _ = servers
    with TableServiceClient.from_connection_string(connection_string(server),
                                                   retry_total=0) as service:
        name = unique_name("host")
        table = service.create_table(name)
        table.create_entity({"PartitionKey": "p", "RowKey": "r1", "n": 1})
        table.submit_transaction([("create", {"PartitionKey": "p", "RowKey": "r2", "n": 2}),
                                  ("upsert", {"PartitionKey": "p", "RowKey": "r3", "n": 3})])
        table.update_entity({"PartitionKey": "p", "RowKey": "r1", "n": 10}, mode=UpdateMode.MERGE)
        assert [(e["RowKey"], e["n"]) for e in table.query_entities("PartitionKey eq 'p'")] == [
            ("r1", 10), ("r2", 2), ("r3", 3)]
        assert name in [t.name for t in service.list_tables()]
        table.delete_entity("p", "r3")
        with pytest.raises(ResourceNotFoundError):
            table.get_entity("p", "r3")
        # The same table through path style on the same port.
        with service_client(server) as path_style:
            assert path_style.get_table_client(name).get_entity("p", "r1")["n"] == 10
        service.delete_table(name)


def test_service_properties_acl_and_the_secondary_over_host_style(servers):
    server, _ = servers
    credential = AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY)
    # Python derives no secondary host from a custom endpoint: it is named, as on Azure for a
    # custom domain.
    secondary = "%s-secondary.localhost:%d" % (DEV_ACCOUNT, server.port)
    with TableServiceClient(host_url(server), credential=credential, retry_total=0,
                            secondary_hostname=secondary) as service:
        assert service.get_service_properties()["analytics_logging"].version == "1.0"
        assert service.get_service_stats()["geo_replication"]["status"] == "live"
        name = unique_name("acl")
        table = service.create_table(name)
        table.set_table_access_policy({})
        assert table.get_table_access_policy() == {}


def test_a_wrong_key_is_refused_on_a_host_style_url(servers):
    server, _ = servers
    wrong = AzureNamedKeyCredential(DEV_ACCOUNT, "d3Jvbmcga2V5")
    with TableServiceClient(host_url(server), credential=wrong, retry_total=0) as service:
        with pytest.raises(ClientAuthenticationError) as error:
            service.create_table(unique_name("bad"))
        assert wire_error_code(error.value) == "AuthenticationFailed"


def test_with_host_style_off_the_host_is_ignored(servers):
    _, off = servers
    credential = AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY)
    with TableClient(host_url(off), "anytable", credential=credential, retry_total=0) as table:
        with pytest.raises(HttpResponseError) as error:
            table.create_table()
        assert (error.value.status_code, wire_error_code(error.value)) == (400, "InvalidUri")
    with TableServiceClient("%s/%s" % (host_url(off), DEV_ACCOUNT), credential=credential,
                            retry_total=0) as path_style:
        path_style.create_table(unique_name("off"))


def test_the_secondary_refuses_writes_and_serves_reads(servers):
    # spec §1.1: the Python SDK's recording test_table_client_location_mode, replayed. The service
    # answers every write on <account>-secondary with 403 InsufficientAccountPermissions "Write
    # operations are not allowed."; reads are served.
    from azure.data.tables._models import LocationMode
    server, _ = servers
    credential = AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY)
    secondary = "%s-secondary.localhost:%d" % (DEV_ACCOUNT, server.port)
    name = unique_name("mytable")
    entity = {"PartitionKey": "foo", "RowKey": "bar"}

    def on_secondary():
        return TableClient(host_url(server), name, credential=credential, retry_total=0,
                           secondary_hostname=secondary, location_mode=LocationMode.SECONDARY)

    with on_secondary() as client:
        with pytest.raises(HttpResponseError) as error:
            client.create_table()
        assert (error.value.status_code, wire_error_code(error.value)) == (
            403, "InsufficientAccountPermissions")
        assert "Write operations are not allowed." in str(error.value)
    with TableClient(host_url(server), name, credential=credential, retry_total=0) as client:
        client.create_table()
    with on_secondary() as client:
        for write in (lambda: client.create_entity(entity), lambda: client.upsert_entity(entity),
                      lambda: client.delete_entity(entity), client.delete_table,
                      lambda: client.set_table_access_policy({})):
            with pytest.raises(HttpResponseError) as error:
                write()
            assert (error.value.status_code, wire_error_code(error.value)) == (
                403, "InsufficientAccountPermissions")
        with pytest.raises(ResourceNotFoundError):
            client.get_entity("foo", "bar")
        assert list(client.list_entities()) == []
    with TableClient(host_url(server), name, credential=credential, retry_total=0) as client:
        client.delete_table()
    # (The SDK sends a transaction to the primary whatever the location mode: the path-style test
    # in test_tables.py sends one to the secondary.)



def test_a_path_naming_an_account_wins_over_an_alias_named_like_another_account():
    # spec §1.1: compose or Kubernetes give the server an alias such as tables.ci.internal; with an
    # account "tables" made at run time, a path-style client of devstoreaccount1 on that alias is
    # still path style (before: routed to "tables" and refused, 403 AuthenticationFailed), while a
    # host-style client of "tables" on the same alias keeps working, tables named like an account
    # included.
    server = start(args=["--in-memory"])
    try:
        request = urllib.request.Request("http://127.0.0.1:%d/-/accounts" % server.port,
                                         data=json.dumps({"name": "tables"}).encode(),
                                         method="POST")
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 201
            made = json.loads(response.read())
        alias = "http://tables.localhost:%d" % server.port
        dev = AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY)
        mine = unique_name("dev")
        with TableServiceClient("%s/%s" % (alias, DEV_ACCOUNT), credential=dev,
                                retry_total=0) as path_style:
            table = path_style.create_table(mine)
            table.create_entity({"PartitionKey": "p", "RowKey": "1", "n": 1})
            table.submit_transaction([("upsert", {"PartitionKey": "p", "RowKey": "2", "n": 2})])
            assert [e["n"] for e in table.list_entities()] == [1, 2]
            assert mine in [t.name for t in path_style.list_tables()]
            assert path_style.get_service_properties()["analytics_logging"].version == "1.0"
        with service_client(server) as direct:  # the same account at 127.0.0.1
            assert direct.get_table_client(mine).get_entity("p", "2")["n"] == 2
        with TableServiceClient(alias, credential=AzureNamedKeyCredential("tables", made["key"]),
                                retry_total=0) as host_style:
            assert [t.name for t in host_style.list_tables()] == []
            # A table named like an account: "POST /devstoreaccount1" is Insert Entity into it.
            named = host_style.create_table(DEV_ACCOUNT)
            named.create_entity({"PartitionKey": "p", "RowKey": "1"})
            assert [e["RowKey"] for e in named.list_entities()] == ["1"]
            assert [t.name for t in host_style.list_tables()] == [DEV_ACCOUNT]
        with service_client(server) as direct:
            assert DEV_ACCOUNT not in [t.name for t in direct.list_tables()]
        # The dev key does not open "tables" through its host name.
        with TableServiceClient(alias, credential=dev, retry_total=0) as wrong:
            with pytest.raises(ClientAuthenticationError):
                list(wrong.list_tables())
    finally:
        stop_checked(server)
