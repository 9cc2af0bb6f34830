// Entity JSON bodies parsed into typed properties, each compared as one dump: the SDKs' styles,
// type inference and annotations, and every malformed body's error code.
#include "server/wire/entity_json_parse.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "common/datetime.h"
#include "common/encoding.h"
#include "server/wire/json_writer.h"

namespace malachite::server {
namespace {

std::string ValueText(const EdmValue& v) {
  std::string out;
  switch (v.type) {
    case EdmType::kString:
      return v.bytes;
    case EdmType::kInt32:
    case EdmType::kInt64:
      return std::to_string(v.integer);
    case EdmType::kDouble:
      if (std::isnan(v.number)) return "NaN";
      if (std::isinf(v.number)) return v.number > 0 ? "Infinity" : "-Infinity";
      AppendJsonDouble(out, v.number);
      return out;
    case EdmType::kBoolean:
      return v.integer ? "true" : "false";
    case EdmType::kDateTime:
      return FormatIso8601Fixed7(v.AsDateTime());
    case EdmType::kGuid:
      return FormatGuid(v.bytes);
    case EdmType::kBinary:
      return "base64:" + Base64Encode(v.bytes);
  }
  return "?";
}

// "PK=<pk> RK=<rk> | Name:Edm.String=value | ..." or "<ErrorCode>" when parsing fails.
std::string Dump(std::string_view body) {
  Result<ParsedEntity> parsed = ParseEntityJson(body);
  if (!parsed) return std::string(parsed.error().AzureCode());
  std::string out = parsed->has_partition_key ? "PK=" + parsed->entity.partition_key : "PK-";
  out += parsed->has_row_key ? " RK=" + parsed->entity.row_key : " RK-";
  for (const Property& p : parsed->entity.properties) {
    out += " | " + p.name + ":" + std::string(EdmTypeName(p.value.type)) + "=" + ValueText(p.value);
  }
  return out;
}

TEST_CASE("entity_json: the spec example body parses to typed properties", "[json]") {
  CHECK(Dump(R"J({"PartitionKey":"store1","RowKey":"0007","Name":"Bolt","Qty":40,"Price":1.25,
 "Sku@odata.type":"Edm.Int64","Sku":"90000000001",
 "Added@odata.type":"Edm.DateTime","Added":"2024-01-02T03:04:05.678Z",
 "Id@odata.type":"Edm.Guid","Id":"0f8fad5b-d9cb-469f-a165-70867728950e",
 "Blob@odata.type":"Edm.Binary","Blob":"AQID","Ratio@odata.type":"Edm.Double","Ratio":2})J") ==
        "PK=store1 RK=0007 | Name:Edm.String=Bolt | Qty:Edm.Int32=40 | Price:Edm.Double=1.25 | "
        "Sku:Edm.Int64=90000000001 | Added:Edm.DateTime=2024-01-02T03:04:05.6780000Z | "
        "Id:Edm.Guid=0f8fad5b-d9cb-469f-a165-70867728950e | Blob:Edm.Binary=base64:AQID | "
        "Ratio:Edm.Double=2.0");
}

// Azure: spec §5.2 (the name stays ASCII: Windows hands a program its arguments in the ANSI code
// page, so a test named with "§" cannot be selected by name under Wine).
TEST_CASE("entity_json: unannotated values are typed by the inference of spec 5.2", "[json]") {
  CHECK(Dump(R"J({"s":"2024-01-02T03:04:05Z","i":2147483647,"j":-2147483648,"big":2147483648,)J"
             R"J("neg":-5454161346626,"u":18446744073709551615,"d":3.0,"e":1e3,"t":true,)J"
             R"J("f":false,"n":null})J") ==
        "PK- RK- | s:Edm.String=2024-01-02T03:04:05Z | i:Edm.Int32=2147483647 | "
        "j:Edm.Int32=-2147483648 | big:Edm.Double=2147483648.0 | neg:Edm.Double=-5454161346626.0 | "
        "u:Edm.Double=18446744073709551616.0 | d:Edm.Double=3.0 | e:Edm.Double=1000.0 | "
        "t:Edm.Boolean=true | f:Edm.Boolean=false");
}

TEST_CASE("entity_json: a typed null is not stored, like an untyped one, its type is still checked",
          "[json]") {
  // Azure: spec §3 — what @azure/data-tables sends for { value: null, type: "String" }.
  CHECK(Dump(R"J({"S":null,"S@odata.type":"Edm.String","D@odata.type":"Edm.DateTime","D":null,)J"
             R"J("K":1})J") == "PK- RK- | K:Edm.Int32=1");
  CHECK(Dump(R"J({"X":null,"X@odata.type":"Edm.Decimal"})J") == "InvalidInput");
}

TEST_CASE("entity_json: an annotation may come before or after its value", "[json]") {
  const std::string expected = "PK- RK- | A:Edm.Int64=12 | B:Edm.Int64=13";
  CHECK(Dump(R"J({"A@odata.type":"Edm.Int64","A":"12","B":"13","B@odata.type":"Edm.Int64"})J") ==
        expected);
}

TEST_CASE("entity_json: odata members, Timestamp and stray annotations are ignored", "[json]") {
  CHECK(Dump(R"J({"odata.etag":"W/\"x\"","odata.metadata":"u","Timestamp":"2024-01-01T00:00:00Z",)J"
             R"J("Timestamp@odata.type":"Edm.DateTime","Orphan@odata.type":"Edm.Int64","X":1})J") ==
        "PK- RK- | X:Edm.Int32=1");
}

TEST_CASE("entity_json: Python-style bodies annotate keys and strings as Edm.String", "[json]") {
  CHECK(
      Dump(
          R"J({"PartitionKey": "pk", "PartitionKey@odata.type": "Edm.String", "RowKey": "rk",)J"
          R"J( "RowKey@odata.type": "Edm.String", "name": "x", "name@odata.type": "Edm.String",)J"
          R"J( "ratio": 3.0, "ratio@odata.type": "Edm.Double", "big": "9007199254740993",)J"
          R"J( "big@odata.type": "Edm.Int64", "when": "2024-01-02T03:04:05.678000Z",)J"
          R"J( "when@odata.type": "Edm.DateTime", "flag": true, "count": 5, "nan": "NaN",)J"
          R"J( "nan@odata.type": "Edm.Double", "inf": "Infinity", "inf@odata.type": "Edm.Double",)J"
          R"J( "blob": "AQID", "blob@odata.type": "Edm.Binary"})J") ==
      "PK=pk RK=rk | name:Edm.String=x | ratio:Edm.Double=3.0 | big:Edm.Int64=9007199254740993 | "
      "when:Edm.DateTime=2024-01-02T03:04:05.6780000Z | flag:Edm.Boolean=true | "
      "count:Edm.Int32=5 | nan:Edm.Double=NaN | inf:Edm.Double=Infinity | "
      "blob:Edm.Binary=base64:AQID");
}

TEST_CASE("entity_json: JS-style bodies with explicit types parse", "[json]") {
  CHECK(Dump(R"J({"partitionKey":"ignored-case","PartitionKey":"p","RowKey":"","n":3,"d":1.5,)J"
             R"J("big":"12","big@odata.type":"Edm.Int64","i64n":5,"i64n@odata.type":"Edm.Int64",)J"
             R"J("dd":"2","dd@odata.type":"Edm.Double","dn":2,"dn@odata.type":"Edm.Double",)J"
             R"J("i32":"7","i32@odata.type":"Edm.Int32","b":"true","b@odata.type":"Edm.Boolean",)J"
             R"J("t":"2024-01-02T03:04:05.678Z","t@odata.type":"Edm.DateTime"})J") ==
        "PK=p RK= | partitionKey:Edm.String=ignored-case | n:Edm.Int32=3 | d:Edm.Double=1.5 | "
        "big:Edm.Int64=12 | i64n:Edm.Int64=5 | dd:Edm.Double=2.0 | dn:Edm.Double=2.0 | "
        "i32:Edm.Int32=7 | b:Edm.Boolean=true | t:Edm.DateTime=2024-01-02T03:04:05.6780000Z");
}

TEST_CASE("entity_json: DateTime range ends and offsets parse", "[json]") {
  CHECK(
      Dump(R"J({"a@odata.type":"Edm.DateTime","a":"1601-01-01T00:00:00Z",)J"
           R"J("b@odata.type":"Edm.DateTime","b":"9999-12-31T23:59:59.9999999Z",)J"
           R"J("c@odata.type":"Edm.DateTime","c":"2024-01-02T03:04:05+01:00"})J") ==
      "PK- RK- | a:Edm.DateTime=1601-01-01T00:00:00.0000000Z | "
      "b:Edm.DateTime=9999-12-31T23:59:59.9999999Z | c:Edm.DateTime=2024-01-02T02:04:05.0000000Z");
}

TEST_CASE("entity_json: every malformed body fails with its error code", "[json]") {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"", "InvalidInput"},
      {"not json", "InvalidInput"},
      {R"J({"a":1)J", "InvalidInput"},
      {R"J({"a":1} x)J", "InvalidInput"},
      {R"J([{"a":1}])J", "InvalidInput"},
      {R"J("text")J", "InvalidInput"},
      {"null", "InvalidInput"},
      {R"J({"a":{"b":1}})J", "InvalidInput"},
      {R"J({"a":[1]})J", "InvalidInput"},
      {R"J({"a":1.797693134862316e309})J", "InvalidInput"},
      {R"J({"a":"1.797693134862316e309","a@odata.type":"Edm.Double"})J", "InvalidInput"},
      {R"J({"a":"abc","a@odata.type":"Edm.Double"})J", "InvalidInput"},
      {R"J({"a":true,"a@odata.type":"Edm.Double"})J", "InvalidInput"},
      {R"J({"a":"1","a@odata.type":"Edm.Decimal"})J", "InvalidInput"},
      {R"J({"a":"1","a@odata.type":"edm.int64"})J", "InvalidInput"},
      {R"J({"a":"1","a@odata.type":5})J", "InvalidInput"},
      {R"J({"a":"abc","a@odata.type":"Edm.Int64"})J", "InvalidInput"},
      {R"J({"a":"12 ","a@odata.type":"Edm.Int64"})J", "InvalidInput"},
      {R"J({"a":"+12","a@odata.type":"Edm.Int64"})J", "InvalidInput"},
      {R"J({"a":"","a@odata.type":"Edm.Int64"})J", "InvalidInput"},
      {R"J({"a":1.5,"a@odata.type":"Edm.Int64"})J", "InvalidInput"},
      {R"J({"a":"9223372036854775808","a@odata.type":"Edm.Int64"})J", "OutOfRangeInput"},
      {R"J({"a":9223372036854775808,"a@odata.type":"Edm.Int64"})J", "OutOfRangeInput"},
      {R"J({"a":2147483648,"a@odata.type":"Edm.Int32"})J", "OutOfRangeInput"},
      {R"J({"a":"-2147483649","a@odata.type":"Edm.Int32"})J", "OutOfRangeInput"},
      {R"J({"a":1.0,"a@odata.type":"Edm.Int32"})J", "InvalidInput"},
      {R"J({"a":"","a@odata.type":"Edm.DateTime"})J", "InvalidInput"},
      {R"J({"a":"yesterday","a@odata.type":"Edm.DateTime"})J", "InvalidInput"},
      {R"J({"a":"1600-12-31T23:59:59Z","a@odata.type":"Edm.DateTime"})J", "OutOfRangeInput"},
      {R"J({"a":"0001-01-01T00:00:00Z","a@odata.type":"Edm.DateTime"})J", "OutOfRangeInput"},
      {R"J({"a":12,"a@odata.type":"Edm.DateTime"})J", "InvalidInput"},
      {R"J({"a":"not-a-guid","a@odata.type":"Edm.Guid"})J", "InvalidInput"},
      {R"J({"a":"!!!","a@odata.type":"Edm.Binary"})J", "InvalidInput"},
      {R"J({"a":5,"a@odata.type":"Edm.String"})J", "InvalidInput"},
      {R"J({"a":"maybe","a@odata.type":"Edm.Boolean"})J", "InvalidInput"},
      {R"J({"PartitionKey":5})J", "InvalidInput"},
      {R"J({"RowKey":null})J", "InvalidInput"},
      {R"J({"RowKey":["r"]})J", "InvalidInput"},
      {R"J({"PartitionKey":"p","PartitionKey@odata.type":"Edm.Int32"})J", "InvalidInput"},
      {R"J({"a":1,"a":2})J", "DuplicatePropertiesSpecified"},
      {R"J({"PartitionKey":"p","PartitionKey":"q"})J", "DuplicatePropertiesSpecified"},
      {R"J({"a":"1","a@odata.type":"Edm.Int64","a@odata.type":"Edm.Int64"})J",
       "DuplicatePropertiesSpecified"},
      {R"J({"my-prop":1})J", "PropertyNameInvalid"},
      {R"J({"1abc":1})J", "PropertyNameInvalid"},
      {R"J({"a b":null})J", "PropertyNameInvalid"},
      {R"J({"":1})J", "PropertyNameInvalid"},
  };
  for (auto [body, code] : cases) {
    INFO(body);
    CHECK(Dump(body) == code);
  }
  CHECK(Dump("{\"" + std::string(256, 'p') + "\":1}") == "PropertyNameTooLong");
  CHECK(Dump("{\"a\":\"\xff\"}") == "InvalidInput");
}

TEST_CASE("entity_json: large bodies parse and the parser is reused afterwards", "[json]") {
  std::string body = R"J({"PartitionKey":"p","RowKey":"r")J";
  for (int i = 0; i < 200; ++i) {
    body += ",\"p" + std::to_string(i) + "\":\"" + std::string(2000, 'x') + "\"";
  }
  body += "}";
  Result<ParsedEntity> big = ParseEntityJson(body);
  REQUIRE(big.has_value());
  CHECK(big->entity.properties.size() == 200);
  CHECK(Dump(R"J({"a":1})J") == "PK- RK- | a:Edm.Int32=1");
}

}  // namespace
}  // namespace malachite::server
