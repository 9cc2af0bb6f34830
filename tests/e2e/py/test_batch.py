"""Entity group transactions through azure-data-tables submit_transaction (spec §7)."""
import threading

import pytest
from azure.core import MatchConditions
from azure.data.tables import RequestTooLargeError, TableTransactionError, UpdateMode


def rows(table, pk):
    return {e["RowKey"]: e.get("v") for e in table.query_entities("PartitionKey eq @pk", parameters={"pk": pk})}


def test_transaction_applies_every_operation(table):
    table.create_entity({"PartitionKey": "b", "RowKey": "upd", "v": 1, "keep": "k"})
    table.create_entity({"PartitionKey": "b", "RowKey": "del", "v": 1})
    result = table.submit_transaction([
        ("create", {"PartitionKey": "b", "RowKey": "new", "v": 1}),
        ("update", {"PartitionKey": "b", "RowKey": "upd", "v": 2}, {"mode": UpdateMode.MERGE}),
        ("upsert", {"PartitionKey": "b", "RowKey": "ups", "v": 3}, {"mode": UpdateMode.REPLACE}),
        ("delete", {"PartitionKey": "b", "RowKey": "del"}),
    ])
    assert len(result) == 4
    assert all("etag" in r for r in result[:3])
    assert rows(table, "b") == {"new": 1, "upd": 2, "ups": 3}
    assert table.get_entity("b", "upd")["keep"] == "k"


def test_failing_operation_rolls_back_and_names_its_index(table):
    table.create_entity({"PartitionKey": "f", "RowKey": "exists", "v": 0})
    with pytest.raises(TableTransactionError) as info:
        table.submit_transaction([
            ("create", {"PartitionKey": "f", "RowKey": "a", "v": 1}),
            ("create", {"PartitionKey": "f", "RowKey": "b", "v": 1}),
            ("create", {"PartitionKey": "f", "RowKey": "exists", "v": 1}),
        ])
    assert info.value.index == 2
    assert info.value.error_code == "EntityAlreadyExists"
    assert rows(table, "f") == {"exists": 0}


def test_operations_on_two_partitions_are_refused_by_the_sdk_or_the_service(table):
    with pytest.raises((ValueError, TableTransactionError)):
        table.submit_transaction([
            ("create", {"PartitionKey": "x", "RowKey": "1"}),
            ("create", {"PartitionKey": "y", "RowKey": "1"}),
        ])
    assert rows(table, "x") == {} and rows(table, "y") == {}


# ---- Index reporting, limits and the design-guide patterns (spec §7.4) ----
def test_stale_etag_in_the_middle_names_index_1_and_rolls_back(table):
    first = table.create_entity({"PartitionKey": "e", "RowKey": "r", "v": 1})
    table.update_entity({"PartitionKey": "e", "RowKey": "r", "v": 2})
    with pytest.raises(TableTransactionError) as info:
        table.submit_transaction([
            ("create", {"PartitionKey": "e", "RowKey": "n", "v": 1}),
            ("update", {"PartitionKey": "e", "RowKey": "r", "v": 3},
             {"mode": UpdateMode.REPLACE, "etag": first["etag"],
              "match_condition": MatchConditions.IfNotModified}),
        ])
    assert info.value.index == 1
    assert info.value.error_code == "UpdateConditionNotSatisfied"
    assert info.value.status_code == 412
    assert rows(table, "e") == {"r": 2}


def test_single_operation_failure_has_no_index_prefix(table):
    with pytest.raises(TableTransactionError) as info:
        table.submit_transaction([
            ("update", {"PartitionKey": "s", "RowKey": "missing", "v": 1}, {"mode": UpdateMode.MERGE}),
        ])
    assert info.value.error_code == "ResourceNotFound"
    assert info.value.index == 0
    assert info.value.message.startswith("The specified resource does not exist.")


def test_result_etags_match_the_stored_entities(table):
    result = table.submit_transaction([
        ("create", {"PartitionKey": "m", "RowKey": "a", "v": 1}),
        ("upsert", {"PartitionKey": "m", "RowKey": "b", "v": 2}),
    ])
    assert [r["etag"] for r in result] == [table.get_entity("m", rk).metadata["etag"] for rk in "ab"]


def test_100_operations_pass_and_101_fail_without_writing(table):
    table.submit_transaction([("create", {"PartitionKey": "h", "RowKey": "ok%03d" % i}) for i in range(100)])
    assert len(rows(table, "h")) == 100
    with pytest.raises(TableTransactionError) as info:
        table.submit_transaction([("create", {"PartitionKey": "h", "RowKey": "no%03d" % i}) for i in range(101)])
    assert info.value.error_code == "InvalidInput"
    assert len(rows(table, "h")) == 100


def test_a_body_over_4_mib_is_request_too_large(table):
    big = "x" * 30000  # 100 x ~60 KB of UTF-16-sized JSON > 4 MiB on the wire
    with pytest.raises(RequestTooLargeError):
        table.submit_transaction([
            ("create", {"PartitionKey": "big", "RowKey": str(i), "a": big, "b": big}) for i in range(80)
        ])
    assert rows(table, "big") == {}


def test_secondary_index_rows_change_together(table):
    dept = "Sales"

    def emp(rk, email):
        return {"PartitionKey": dept, "RowKey": rk, "EmployeeId": "000123", "Email": email}

    table.submit_transaction([
        ("create", emp("empid_000123", "don@contoso.com")),
        ("create", emp("email_don@contoso.com", "don@contoso.com")),
    ])
    table.create_entity({"PartitionKey": dept, "RowKey": "email_taken@contoso.com", "EmployeeId": "999"})
    with pytest.raises(TableTransactionError) as info:
        table.submit_transaction([
            ("upsert", emp("empid_000123", "taken@contoso.com"), {"mode": UpdateMode.REPLACE}),
            ("delete", {"PartitionKey": dept, "RowKey": "email_don@contoso.com"}),
            ("create", emp("email_taken@contoso.com", "taken@contoso.com")),
        ])
    assert info.value.index == 2
    assert table.get_entity(dept, "empid_000123")["Email"] == "don@contoso.com"
    assert table.get_entity(dept, "email_don@contoso.com")["EmployeeId"] == "000123"


def test_concurrent_registrations_for_one_bib_land_both_rows_for_exactly_one_runner(table):
    race = "race"
    runners = ["r%d" % i for i in range(8)]
    won = []

    def register(runner):
        try:
            table.submit_transaction([
                ("create", {"PartitionKey": race, "RowKey": "BIB:0042", "Runner": runner}),
                ("create", {"PartitionKey": race, "RowKey": "AGE:M40-" + runner, "Bib": "0042"}),
            ])
            won.append(runner)
        except TableTransactionError as e:
            assert e.error_code == "EntityAlreadyExists" and e.index == 0

    threads = [threading.Thread(target=register, args=(r,)) for r in runners]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1
    assert set(rows(table, race)) == {"BIB:0042", "AGE:M40-" + won[0]}
    assert table.get_entity(race, "BIB:0042")["Runner"] == won[0]
