"""Accounts made at run time (POST /-/accounts, server/admin/account_endpoints.h) with the real
Python SDK: each works with Shared Key, SAS and host-style URLs, is isolated from the others,
survives a restart (or not, with --transient-accounts), and goes with its data on DELETE, also
while requests run on it."""
import json
import threading
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone

import pytest
from azure.core.credentials import AzureNamedKeyCredential, AzureSasCredential
from azure.core.exceptions import ClientAuthenticationError, HttpResponseError
from azure.data.tables import (TableClient, TableCorsRule, TableSasPermissions,
                               TableServiceClient, generate_table_sas)

from access_support import localhost_resolves_to_loopback
from conftest import start, stop_checked, unique_name


def admin(server, method, path, body=None):
    """(status, JSON body or None, x-ms-error-code) of an admin call."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request("http://127.0.0.1:%d%s" % (server.port, path), data=data,
                                     method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read()
            return response.status, (json.loads(text) if text else None), None
    except urllib.error.HTTPError as error:
        text = error.read()
        return error.code, (json.loads(text) if text else None), error.headers.get("x-ms-error-code")


def create_account(server, **body):
    status, made, code = admin(server, "POST", "/-/accounts", body or None)
    assert status == 201, (status, made, code)
    return made


@pytest.fixture(scope="module")
def server():
    s = start(args=["--in-memory"])
    yield s
    stop_checked(s)


def test_a_made_account_serves_the_sdk_and_sees_only_its_own_tables(server):
    first, second = create_account(server), create_account(server)
    assert first["name"] != second["name"]
    assert first["tableEndpoint"] == "http://127.0.0.1:%d/%s" % (server.port, first["name"])
    table = unique_name("Orders")
    with TableServiceClient.from_connection_string(first["connectionString"]) as service:
        client = service.create_table(table)
        client.upsert_entity({"PartitionKey": "p", "RowKey": "1", "Total": 5})
        assert client.get_entity("p", "1")["Total"] == 5
    with TableServiceClient.from_connection_string(second["connectionString"]) as service:
        assert [t.name for t in service.list_tables()] == []
        service.create_table(table)  # the same name in another account: no conflict
    # The key of one account does not open another.
    forged = first["connectionString"].replace(first["key"], second["key"])
    with TableServiceClient.from_connection_string(forged) as service:
        with pytest.raises(ClientAuthenticationError):
            list(service.list_tables())


def test_a_made_account_takes_sas_and_host_style_urls(server):
    made = create_account(server, name=unique_name("sas").lower()[:20])
    table = unique_name("Sas")
    with TableServiceClient.from_connection_string(made["connectionString"]) as service:
        service.create_table(table).upsert_entity({"PartitionKey": "p", "RowKey": "1"})
    sas = generate_table_sas(AzureNamedKeyCredential(made["name"], made["key"]), table,
                             permission=TableSasPermissions(read=True),
                             expiry=datetime.now(timezone.utc) + timedelta(hours=1))
    with TableClient(made["tableEndpoint"], table, credential=AzureSasCredential(sas)) as client:
        assert [e["RowKey"] for e in client.list_entities()] == ["1"]
    with localhost_resolves_to_loopback():
        credential = AzureNamedKeyCredential(made["name"], made["key"])
        with TableServiceClient(made["hostStyleTableEndpoint"], credential=credential) as service:
            assert [t.name for t in service.list_tables()] == [table]


def test_names_in_use_and_invalid_input_get_azure_errors(server):
    made = create_account(server)
    assert admin(server, "POST", "/-/accounts", {"name": made["name"]})[2] == \
        "StorageAccountAlreadyTaken"
    status, body, code = admin(server, "POST", "/-/accounts", {"name": "Not-Valid"})
    assert (status, code) == (400, "AccountNameInvalid")
    assert "between 3 and 24 characters" in body["odata.error"]["message"]["value"]
    assert admin(server, "POST", "/-/accounts", {"key": "***"})[:3:2] == (400, "InvalidInput")
    assert admin(server, "DELETE", "/-/accounts/devstoreaccount1")[:3:2] == \
        (409, "OperationNotAllowed")
    assert admin(server, "DELETE", "/-/accounts/nosuchaccount")[:3:2] == (404, "ResourceNotFound")
    names = [a["name"] for a in admin(server, "GET", "/-/accounts")[1]["accounts"]]
    assert names[0] == "devstoreaccount1" and made["name"] in names


def test_reset_and_delete_of_a_made_account(server):
    made = create_account(server)
    with TableServiceClient.from_connection_string(made["connectionString"]) as service:
        service.create_table(unique_name("Reset"))
        status, summary, _ = admin(server, "POST", "/-/reset?account=" + made["name"])
        assert status == 200 and summary["tables_deleted"] == 1
        assert list(service.list_tables()) == []
        service.create_table(unique_name("Gone"))
        assert admin(server, "DELETE", "/-/accounts/" + made["name"])[0] == 204
        with pytest.raises(ClientAuthenticationError):
            list(service.list_tables())
    assert made["name"] not in [a["name"] for a in admin(server, "GET", "/-/accounts")[1]["accounts"]]
    # Made again under the same name: empty.
    again = create_account(server, name=made["name"])
    with TableServiceClient.from_connection_string(again["connectionString"]) as service:
        assert list(service.list_tables()) == []


def test_service_properties_go_with_the_account_and_survive_a_reset(server):
    made = create_account(server)
    rule = TableCorsRule(["http://app.example"], ["GET"])
    with TableServiceClient.from_connection_string(made["connectionString"]) as service:
        service.set_service_properties(cors=[rule])
        assert admin(server, "POST", "/-/reset?account=" + made["name"])[0] == 200
        assert [r.allowed_origins for r in service.get_service_properties()["cors"]] == [
            ["http://app.example"]]
    assert admin(server, "DELETE", "/-/accounts/" + made["name"])[0] == 204
    # Made again under the same name: the defaults, as a new Azure account has.
    again = create_account(server, name=made["name"])
    with TableServiceClient.from_connection_string(again["connectionString"]) as service:
        assert service.get_service_properties()["cors"] == []


def test_deleting_an_account_while_requests_run_on_it(server):
    made = create_account(server)
    table = unique_name("Busy")
    with TableServiceClient.from_connection_string(made["connectionString"]) as service:
        service.create_table(table)
    outcomes, stop = [], threading.Event()

    def hammer(worker):
        with TableClient.from_connection_string(made["connectionString"], table) as client:
            i = 0
            while not stop.is_set():
                i += 1
                try:
                    client.upsert_entity({"PartitionKey": str(worker), "RowKey": str(i)})
                    outcomes.append(200)
                except HttpResponseError as error:
                    outcomes.append(error.status_code)

    workers = [threading.Thread(target=hammer, args=(n,)) for n in range(4)]
    for w in workers:
        w.start()
    while len(outcomes) < 50:
        pass
    assert admin(server, "DELETE", "/-/accounts/" + made["name"])[0] == 204
    after = len(outcomes)
    while len(outcomes) < after + 20:
        pass
    stop.set()
    for w in workers:
        w.join()
    # Each request finished or was refused as for an unknown account: never a 5xx.
    assert set(outcomes) <= {200, 403, 404}, sorted(set(outcomes))
    assert outcomes[-1] == 403
    with urllib.request.urlopen("http://127.0.0.1:%d/-/ready" % server.port, timeout=10) as ready:
        assert ready.status == 200


def test_made_accounts_survive_a_restart(tmp_path):
    data_dir = str(tmp_path / "data")
    server = start(data_dir=data_dir)
    try:
        made = create_account(server, name="restart1")
        with TableServiceClient.from_connection_string(made["connectionString"]) as service:
            service.create_table("Kept").upsert_entity({"PartitionKey": "p", "RowKey": "1"})
        stop_checked(server)
        server = start(data_dir=data_dir)
        # The same name and key, on the port of the restarted server.
        again = ("DefaultEndpointsProtocol=http;AccountName=restart1;AccountKey=%s;"
                 "TableEndpoint=http://127.0.0.1:%d/restart1;" % (made["key"], server.port))
        with TableClient.from_connection_string(again, "Kept") as client:
            assert client.get_entity("p", "1")["RowKey"] == "1"
    finally:
        stop_checked(server)


def test_transient_accounts_vanish_at_shutdown(tmp_path):
    data_dir = str(tmp_path / "data")
    server = start(data_dir=data_dir, args=["--transient-accounts"])
    try:
        made = create_account(server, name="transient1")
        with TableServiceClient.from_connection_string(made["connectionString"]) as service:
            service.create_table("Gone")
        stop_checked(server)
        server = start(data_dir=data_dir, args=["--transient-accounts"])
        names = [a["name"] for a in admin(server, "GET", "/-/accounts")[1]["accounts"]]
        assert names == ["devstoreaccount1"]
        # The name is free again, and its old table is gone with it.
        again = create_account(server, name="transient1")
        with TableServiceClient.from_connection_string(again["connectionString"]) as service:
            assert list(service.list_tables()) == []
    finally:
        stop_checked(server)


def test_the_explorer_lists_and_opens_a_made_account(server):
    made = create_account(server)
    with TableServiceClient.from_connection_string(made["connectionString"]) as service:
        service.create_table("Explored")
    base = "http://127.0.0.1:%d/-/explorer" % server.port
    with urllib.request.urlopen(base + "/api/server", timeout=10) as response:
        assert made["name"] in json.load(response)["accounts"]
    request = urllib.request.Request(base + "/table/%s/Tables" % made["name"],
                                     headers={"Accept": "application/json;odata=nometadata",
                                              "x-ms-version": "2019-02-02"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert [t["TableName"] for t in json.load(response)["value"]] == ["Explored"]
