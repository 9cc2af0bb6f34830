"""Every EDM type round-trips through azure-data-tables (spec §5.2)."""
import math
import uuid
from datetime import datetime, timezone

from azure.data.tables import EdmType, EntityProperty

GUID = uuid.UUID("0f8fad5b-d9cb-469f-a165-70867728950e")


def test_every_type_round_trips(table):
    when = datetime(2024, 1, 2, 3, 4, 5, 123456, tzinfo=timezone.utc)
    sent = {
        "PartitionKey": "edm", "RowKey": "all",
        "Str": "hello, wörld 😀",
        "EmptyStr": "",
        "I32": 42,
        "I32Min": -2 ** 31,
        "I64": EntityProperty(2 ** 53 + 1, EdmType.INT64),
        "I64Max": EntityProperty(2 ** 63 - 1, EdmType.INT64),
        "I64Min": EntityProperty(-2 ** 63, EdmType.INT64),
        "Dbl": 1.5,
        "Dbl3": 3.0,
        "DblNeg": -0.0001,
        "NaN": float("nan"),
        "PosInf": float("inf"),
        "NegInf": float("-inf"),
        "True": True,
        "False": False,
        "When": when,
        "WhenWhole": datetime(1973, 10, 4, tzinfo=timezone.utc),
        "WhenMin": datetime(1601, 1, 1, tzinfo=timezone.utc),
        "Id": GUID,
        "Bytes": b"\x00\x01\x02\x7f\x80\xfe\xff",
        "EmptyBytes": b"",
    }
    table.create_entity(sent)
    got = table.get_entity("edm", "all")

    assert got["Str"] == sent["Str"] and got["EmptyStr"] == ""
    assert got["I32"] == 42 and type(got["I32"]) is int
    assert got["I32Min"] == -2 ** 31
    for name in ("I64", "I64Max", "I64Min"):
        assert got[name] == EntityProperty(sent[name].value, EdmType.INT64), name
    assert got["Dbl"] == 1.5
    # Azure: an integral Double comes back as 3.0 (a float), not re-typed as Int32 (spec §5.2).
    assert got["Dbl3"] == 3.0 and type(got["Dbl3"]) is float, repr(got["Dbl3"])
    assert got["DblNeg"] == -0.0001
    assert math.isnan(got["NaN"])
    assert got["PosInf"] == math.inf and got["NegInf"] == -math.inf
    assert got["True"] is True and got["False"] is False
    assert got["When"] == when
    assert got["When"].tables_service_value == "2024-01-02T03:04:05.123456Z"
    assert got["WhenWhole"] == datetime(1973, 10, 4, tzinfo=timezone.utc)
    assert got["WhenWhole"].tables_service_value == "1973-10-04T00:00:00Z"
    assert got["WhenMin"] == datetime(1601, 1, 1, tzinfo=timezone.utc)
    assert got["Id"] == GUID and isinstance(got["Id"], uuid.UUID)
    assert got["Bytes"] == sent["Bytes"]
    assert got["EmptyBytes"] == b""
    expected_names = set(sent) - {"PartitionKey", "RowKey"}
    assert set(got) - {"PartitionKey", "RowKey"} == expected_names


def test_explicitly_typed_properties(table):
    table.create_entity({
        "PartitionKey": "edm", "RowKey": "typed",
        "I32": EntityProperty(7, EdmType.INT32),
        "Dbl": EntityProperty(2.0, EdmType.DOUBLE),
        "Str": EntityProperty("123", EdmType.STRING),
        "Bool": EntityProperty(False, EdmType.BOOLEAN),
    })
    got = table.get_entity("edm", "typed")
    assert got["I32"] == 7 and type(got["I32"]) is int
    assert got["Dbl"] == 2.0 and type(got["Dbl"]) is float
    assert got["Str"] == "123"
    assert got["Bool"] is False


def test_datetime_keeps_seven_fractional_digits(table):
    # A string value typed DateTime passes through the SDK unchanged; the service keeps 100 ns ticks.
    table.create_entity({"PartitionKey": "edm", "RowKey": "ticks",
                         "When": EntityProperty("2024-01-02T03:04:05.1234567Z", EdmType.DATETIME)})
    got = table.get_entity("edm", "ticks")
    assert got["When"].tables_service_value == "2024-01-02T03:04:05.1234567Z"
    assert got["When"] == datetime(2024, 1, 2, 3, 4, 5, 123456, tzinfo=timezone.utc)


def test_types_survive_a_listing(table):
    table.create_entity({"PartitionKey": "edm", "RowKey": "list", "I64": EntityProperty(5, EdmType.INT64),
                         "Id": GUID, "Bytes": b"\x01", "Dbl3": 3.0})
    [got] = list(table.query_entities("RowKey eq @rk", parameters={"rk": "list"}))
    assert got["I64"] == EntityProperty(5, EdmType.INT64)
    assert got["Id"] == GUID
    assert got["Bytes"] == b"\x01"
    assert type(got["Dbl3"]) is float
