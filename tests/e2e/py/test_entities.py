"""Entity CRUD, upserts and ETag conditions through azure-data-tables (spec §3, §4.5-4.12)."""
import re

import pytest
from azure.core import MatchConditions
from azure.core.exceptions import ResourceExistsError, ResourceModifiedError, ResourceNotFoundError
from azure.data.tables import UpdateMode

from conftest import wire_error_code

ETAG = re.compile(r"^W/\"datetime'\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d(\.\d{1,7})?Z'\"$")


def custom(entity):
    return {k: v for k, v in entity.items() if k not in ("PartitionKey", "RowKey")}


def test_create_and_get_entity(table):
    meta = table.create_entity({"PartitionKey": "p", "RowKey": "r", "name": "bolt", "qty": 40,
                                "price": 1.25, "ok": True})
    assert ETAG.match(meta["etag"]), meta
    entity = table.get_entity("p", "r")
    assert entity["PartitionKey"] == "p" and entity["RowKey"] == "r"
    assert custom(entity) == {"name": "bolt", "qty": 40, "price": 1.25, "ok": True}
    assert entity.metadata["etag"] == meta["etag"]
    assert entity.metadata["timestamp"].year >= 2024


def test_duplicate_insert_raises_resource_exists(table):
    table.create_entity({"PartitionKey": "p", "RowKey": "r"})
    with pytest.raises(ResourceExistsError) as info:
        table.create_entity({"PartitionKey": "p", "RowKey": "r"})
    assert info.value.status_code == 409
    assert wire_error_code(info.value) == "EntityAlreadyExists"


def test_missing_entity_raises_resource_not_found(table):
    with pytest.raises(ResourceNotFoundError) as info:
        table.get_entity("none", "none")
    assert info.value.error_code == "ResourceNotFound"
    for mode in (UpdateMode.MERGE, UpdateMode.REPLACE):
        with pytest.raises(ResourceNotFoundError):
            table.update_entity({"PartitionKey": "none", "RowKey": "none", "v": 1}, mode=mode)


def test_update_replace_and_merge_with_etag(table):
    meta = table.create_entity({"PartitionKey": "p", "RowKey": "r", "a": "A", "b": "B"})
    replaced = table.update_entity({"PartitionKey": "p", "RowKey": "r", "a": "A2"}, mode=UpdateMode.REPLACE,
                                   etag=meta["etag"], match_condition=MatchConditions.IfNotModified)
    assert replaced["etag"] != meta["etag"]
    assert custom(table.get_entity("p", "r")) == {"a": "A2"}
    merged = table.update_entity({"PartitionKey": "p", "RowKey": "r", "b": "B2"}, mode=UpdateMode.MERGE,
                                 etag=replaced["etag"], match_condition=MatchConditions.IfNotModified)
    assert merged["etag"] != replaced["etag"]
    entity = table.get_entity("p", "r")
    assert custom(entity) == {"a": "A2", "b": "B2"}
    assert entity.metadata["etag"] == merged["etag"]


def test_stale_etag_raises_resource_modified(table):
    table.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 1})
    stale = table.get_entity("p", "r")
    table.update_entity({"PartitionKey": "p", "RowKey": "r", "v": 2})
    for mode in (UpdateMode.MERGE, UpdateMode.REPLACE):
        stale["v"] = 3
        with pytest.raises(ResourceModifiedError) as info:
            table.update_entity(stale, mode=mode, match_condition=MatchConditions.IfNotModified)
        assert info.value.error_code == "UpdateConditionNotSatisfied"
    with pytest.raises(ResourceModifiedError):
        table.delete_entity(stale, match_condition=MatchConditions.IfNotModified)
    assert table.get_entity("p", "r")["v"] == 2


def test_upsert_replace_and_merge(table):
    table.upsert_entity({"PartitionKey": "p", "RowKey": "rep", "a": "A", "b": "B"}, mode=UpdateMode.REPLACE)
    table.upsert_entity({"PartitionKey": "p", "RowKey": "rep", "c": "C"}, mode=UpdateMode.REPLACE)
    assert custom(table.get_entity("p", "rep")) == {"c": "C"}
    table.upsert_entity({"PartitionKey": "p", "RowKey": "mrg", "a": "A", "b": "B"}, mode=UpdateMode.MERGE)
    table.upsert_entity({"PartitionKey": "p", "RowKey": "mrg", "b": "B2", "c": "C"}, mode=UpdateMode.MERGE)
    assert custom(table.get_entity("p", "mrg")) == {"a": "A", "b": "B2", "c": "C"}


def test_delete_entity_with_etag_and_unconditionally(table):
    table.create_entity({"PartitionKey": "p", "RowKey": "a"})
    table.create_entity({"PartitionKey": "p", "RowKey": "b"})
    current = table.get_entity("p", "a")
    table.delete_entity(current, match_condition=MatchConditions.IfNotModified)
    table.delete_entity("p", "b")
    for rk in ("a", "b"):
        with pytest.raises(ResourceNotFoundError):
            table.get_entity("p", rk)


def test_special_keys_round_trip(table):
    for pk, rk in [("it's", "o''clock"), ("with space", "a+b=c&d"), ("100%", "%27x%27"), ("ключ", "日本語😀")]:
        table.create_entity({"PartitionKey": pk, "RowKey": rk, "v": 1})
        entity = table.get_entity(pk, rk)
        assert (entity["PartitionKey"], entity["RowKey"]) == (pk, rk)
        table.update_entity({"PartitionKey": pk, "RowKey": rk, "w": 2}, mode=UpdateMode.MERGE)
        assert custom(table.get_entity(pk, rk)) == {"v": 1, "w": 2}
        table.delete_entity(pk, rk)
        with pytest.raises(ResourceNotFoundError):
            table.get_entity(pk, rk)


def test_select_returns_only_the_selected_properties(table):
    table.create_entity({"PartitionKey": "p", "RowKey": "r", "a": 1, "b": 2, "c": 3})
    entity = table.get_entity("p", "r", select=["a", "c"])
    assert dict(entity) == {"a": 1, "c": 3}


def test_boolean_literal_filters_as_health_checks_send_them(service, table):
    """spec §6.1: `false` alone (the health checks' probe), `true and ...`, `false or ...`."""
    for rk in ("1", "2"):
        table.create_entity({"PartitionKey": "probe", "RowKey": rk})
    assert list(table.query_entities("false")) == []
    assert sorted(e["RowKey"] for e in table.query_entities("true")) == ["1", "2"]
    assert [e["RowKey"] for e in table.query_entities("true and RowKey eq '2'")] == ["2"]
    assert [e["RowKey"] for e in table.query_entities("false or RowKey eq '1'")] == ["1"]
    assert list(service.query_tables("false")) == []
    assert table.table_name in [t.name for t in service.query_tables("not false")]
