"""Service errors reach Python code as the right exception types and codes (spec §8, §9)."""
import pytest
from azure.core.exceptions import (ClientAuthenticationError, HttpResponseError, ResourceExistsError,
                                   ResourceModifiedError, ResourceNotFoundError)
from azure.data.tables import TableServiceClient, UpdateMode
from azure.core.credentials import AzureNamedKeyCredential

from conftest import DEV_ACCOUNT, unique_name, wire_error_code


def test_wrong_key_raises_client_authentication_error(server, table):
    wrong = TableServiceClient(endpoint=server.table_url, retry_total=0,
                               credential=AzureNamedKeyCredential(DEV_ACCOUNT, "d3Jvbmcga2V5IHdyb25nIGtleQ=="))
    with pytest.raises(ClientAuthenticationError) as info:
        list(wrong.list_tables())
    assert info.value.status_code == 403
    with pytest.raises(ClientAuthenticationError):
        wrong.get_table_client(table.table_name).get_entity("p", "r")
    assert wire_error_code(info.value) == "AuthenticationFailed"


def test_conflicts_and_missing(table):
    table.create_entity({"PartitionKey": "p", "RowKey": "r"})
    with pytest.raises(ResourceExistsError):
        table.create_entity({"PartitionKey": "p", "RowKey": "r"})
    with pytest.raises(ResourceNotFoundError):
        table.get_entity("p", "missing")
    stale = table.get_entity("p", "r")
    table.upsert_entity({"PartitionKey": "p", "RowKey": "r", "v": 1}, mode=UpdateMode.REPLACE)
    from azure.core import MatchConditions
    with pytest.raises(ResourceModifiedError):
        table.update_entity(stale, match_condition=MatchConditions.IfNotModified)


def test_missing_keys_raise_value_error(table):
    # The SDK turns PropertiesNeedValue into ValueError.
    with pytest.raises(ValueError):
        table.create_entity({"PartitionKey": "p"})
    with pytest.raises(ValueError):
        table.create_entity({"RowKey": "r"})


@pytest.mark.parametrize("entity, code", [
    ({"PartitionKey": "k" * 1025, "RowKey": "r"}, "KeyValueTooLarge"),
    ({"PartitionKey": "p", "RowKey": "k" * 1025}, "KeyValueTooLarge"),
    ({"PartitionKey": "p", "RowKey": "r", "bad-name": 1}, "PropertyNameInvalid"),
    ({"PartitionKey": "p", "RowKey": "r", "n" * 256: 1}, "PropertyNameTooLong"),
    ({"PartitionKey": "p", "RowKey": "r", "s": "x" * (32 * 1024 + 1)}, "PropertyValueTooLarge"),
    ({"PartitionKey": "p", "RowKey": "r", "b": b"\0" * (64 * 1024 + 1)}, "PropertyValueTooLarge"),
    (dict({"PartitionKey": "p", "RowKey": "r"}, **{"p%d" % i: i for i in range(253)}), "TooManyProperties"),
    (dict({"PartitionKey": "p", "RowKey": "r"}, **{"b%d" % i: b"\1" * 65536 for i in range(17)}),
     "EntityTooLarge"),
])
def test_limit_violations_raise_http_response_error_with_the_code(table, entity, code):
    with pytest.raises(HttpResponseError) as info:
        table.create_entity(entity)
    assert info.value.status_code == 400
    assert wire_error_code(info.value) == code


def test_error_body_is_odata_json_with_request_id(table):
    with pytest.raises(ResourceNotFoundError) as info:
        table.get_entity("p", "none")
    response = info.value.response
    body = response.json()
    message = body["odata.error"]["message"]["value"]
    assert body["odata.error"]["code"] == "ResourceNotFound"
    assert message.startswith("The specified resource does not exist.")
    assert "\nRequestId:%s\n" % response.headers["x-ms-request-id"] in message
    assert "\nTime:" in message
    assert response.headers.get("x-ms-version")
