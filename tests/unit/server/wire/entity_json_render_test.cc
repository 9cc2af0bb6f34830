// Entities rendered as JSON at each metadata level, with $select and as feeds, compared as whole
// bodies; and a rendered entity parses back to itself.
#include "server/wire/entity_json_render.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "common/datetime.h"
#include "common/encoding.h"
#include "server/wire/entity_json_parse.h"
#include "server/wire/json_writer.h"
#include "server/wire/select.h"

namespace malachite::server {
namespace {

Entity EveryType() {
  Entity e;
  e.partition_key = "store1";
  e.row_key = "r'1 /";
  e.timestamp = *ParseIso8601("2024-05-06T07:08:09.1234567Z");
  e.properties = {
      {"Name", EdmValue::String("Bolt \"M6\"\n")},
      {"Qty", EdmValue::Int32(-40)},
      {"Sku", EdmValue::Int64(9000000000000000001)},
      {"Price", EdmValue::Double(1.25)},
      {"Ratio", EdmValue::Double(2)},
      {"Huge", EdmValue::Double(1e20)},
      {"NotANumber", EdmValue::Double(std::nan(""))},
      {"Inf", EdmValue::Double(-HUGE_VAL)},
      {"Ok", EdmValue::Boolean(true)},
      {"Added", EdmValue::Time(*ParseIso8601("2024-01-02T03:04:05.678Z"))},
      {"Id", EdmValue::Guid(*ParseGuid("0F8FAD5B-D9CB-469F-A165-70867728950E"))},
      {"Blob", EdmValue::Binary("\x01\x02\x03")},
  };
  return e;
}

const EntityLocation kWhere{"http://127.0.0.1:10002/devstoreaccount1", "devstoreaccount1", "parts"};

std::string Render(const Entity& e, MetadataLevel level, const Selection& select = {},
                   bool with_url = true) {
  std::string out;
  AppendEntityJson(out, e, level, kWhere, select, with_url);
  return out;
}

const char kCustomMinimal[] =
    R"J("Name":"Bolt \"M6\"\n","Qty":-40,"Sku@odata.type":"Edm.Int64",)J"
    R"J("Sku":"9000000000000000001","Price":1.25,"Ratio":2.0,"Huge":1e+20,)J"
    R"J("NotANumber@odata.type":"Edm.Double","NotANumber":"NaN",)J"
    R"J("Inf@odata.type":"Edm.Double","Inf":"-Infinity","Ok":true,)J"
    R"J("Added@odata.type":"Edm.DateTime","Added":"2024-01-02T03:04:05.678Z",)J"
    R"J("Id@odata.type":"Edm.Guid","Id":"0f8fad5b-d9cb-469f-a165-70867728950e",)J"
    R"J("Blob@odata.type":"Edm.Binary","Blob":"AQID"})J";

TEST_CASE("entity_json: full metadata renders every annotation in spec order", "[json]") {
  CHECK(
      Render(EveryType(), MetadataLevel::kFull) ==
      std::string(
          R"J({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#parts/@Element",)J"
          R"J("odata.type":"devstoreaccount1.parts",)J"
          R"J("odata.id":"http://127.0.0.1:10002/devstoreaccount1/parts(PartitionKey='store1',RowKey='r%27%271%20%2F')",)J"
          R"J("odata.etag":"W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"",)J"
          R"J("odata.editLink":"parts(PartitionKey='store1',RowKey='r%27%271%20%2F')",)J"
          R"J("PartitionKey":"store1","RowKey":"r'1 /",)J"
          R"J("Timestamp@odata.type":"Edm.DateTime","Timestamp":"2024-05-06T07:08:09.1234567Z",)J") +
          kCustomMinimal);
}

TEST_CASE("entity_json: minimal metadata keeps odata.etag and value annotations", "[json]") {
  CHECK(
      Render(EveryType(), MetadataLevel::kMinimal) ==
      std::string(
          R"J({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#parts/@Element",)J"
          R"J("odata.etag":"W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"",)J"
          R"J("PartitionKey":"store1","RowKey":"r'1 /","Timestamp":"2024-05-06T07:08:09.1234567Z",)J") +
          kCustomMinimal);
  CHECK(Render(EveryType(), MetadataLevel::kMinimal, {}, false).rfind(R"J({"odata.etag":)J", 0) ==
        0);
}

TEST_CASE("entity_json: the rendered ETag equals FormatETag as a JSON string", "[json]") {
  for (const char* iso :
       {"2021-02-05T17:15:16.7935715Z", "2021-02-05T17:15:16Z", "2021-02-05T17:15:16.5Z"}) {
    Entity e;
    e.timestamp = *ParseIso8601(iso);
    std::string expected = R"J({"odata.etag":)J";
    AppendJsonString(expected, FormatETag(e.timestamp));
    CHECK(Render(e, MetadataLevel::kMinimal, {}, false).rfind(expected + ",", 0) == 0);
  }
}

TEST_CASE("entity_json: nometadata has no odata members and no annotations", "[json]") {
  CHECK(Render(EveryType(), MetadataLevel::kNone) ==
        R"J({"PartitionKey":"store1","RowKey":"r'1 /","Timestamp":"2024-05-06T07:08:09.1234567Z",)J"
        R"J("Name":"Bolt \"M6\"\n","Qty":-40,"Sku":"9000000000000000001","Price":1.25,)J"
        R"J("Ratio":2.0,"Huge":1e+20,"NotANumber":"NaN","Inf":"-Infinity","Ok":true,)J"
        R"J("Added":"2024-01-02T03:04:05.678Z","Id":"0f8fad5b-d9cb-469f-a165-70867728950e",)J"
        R"J("Blob":"AQID"})J");
}

TEST_CASE("entity_json: $select emits only selected names and null for missing ones", "[json]") {
  Selection select = *ParseSelect("Sku, RowKey,Missing ,Ok");
  CHECK(Render(EveryType(), MetadataLevel::kMinimal, select, false) ==
        R"J({"odata.etag":"W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"","RowKey":"r'1 /",)J"
        R"J("Sku@odata.type":"Edm.Int64","Sku":"9000000000000000001","Missing":null,"Ok":true})J");
  CHECK(Render(EveryType(), MetadataLevel::kNone, *ParseSelect("Timestamp,Added"), false) ==
        R"J({"Timestamp":"2024-05-06T07:08:09.1234567Z","Added":"2024-01-02T03:04:05.678Z"})J");
  CHECK(
      Render(EveryType(), MetadataLevel::kFull, *ParseSelect("Timestamp"), false) ==
      R"J({"odata.type":"devstoreaccount1.parts",)J"
      R"J("odata.id":"http://127.0.0.1:10002/devstoreaccount1/parts(PartitionKey='store1',RowKey='r%27%271%20%2F')",)J"
      R"J("odata.etag":"W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"",)J"
      R"J("odata.editLink":"parts(PartitionKey='store1',RowKey='r%27%271%20%2F')",)J"
      R"J("Timestamp@odata.type":"Edm.DateTime","Timestamp":"2024-05-06T07:08:09.1234567Z"})J");
}

TEST_CASE("entity_json: feeds wrap entities in value with the table metadata URL", "[json]") {
  Entity a, b;
  a.partition_key = "p";
  a.row_key = "1";
  a.timestamp = *ParseIso8601("2024-05-06T07:08:09Z");
  b = a;
  b.row_key = "2";
  b.properties = {{"N", EdmValue::Int32(7)}};
  CHECK(
      RenderEntityFeed({a, b}, MetadataLevel::kMinimal, kWhere, {}) ==
      R"J({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#parts","value":[)J"
      R"J({"odata.etag":"W/\"datetime'2024-05-06T07%3A08%3A09Z'\"","PartitionKey":"p","RowKey":"1",)J"
      R"J("Timestamp":"2024-05-06T07:08:09Z"},)J"
      R"J({"odata.etag":"W/\"datetime'2024-05-06T07%3A08%3A09Z'\"","PartitionKey":"p","RowKey":"2",)J"
      R"J("Timestamp":"2024-05-06T07:08:09Z","N":7}]})J");
  CHECK(RenderEntityFeed({}, MetadataLevel::kNone, kWhere, {}) == R"J({"value":[]})J");
}

TEST_CASE("entity_json: rendering at minimal metadata parses back to the same entity", "[json]") {
  const Entity original = EveryType();
  const std::string body = Render(original, MetadataLevel::kMinimal);
  Result<ParsedEntity> parsed = ParseEntityJson(body);
  REQUIRE(parsed.has_value());
  CHECK(parsed->has_partition_key);
  CHECK(parsed->has_row_key);
  Entity back = parsed->entity;
  back.timestamp = original.timestamp;
  CHECK(back == original);
}

}  // namespace
}  // namespace malachite::server
