#include "server/ops/table_ops.h"

#include <catch2/catch.hpp>

#include "tests/unit/server/handler_harness.h"

namespace malachite::server {
namespace {

using testing::Harness;

const std::string kMinimalType =
    "Content-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8\n";
const std::string kFullType =
    "Content-Type: application/json;odata=fullmetadata;streaming=true;charset=utf-8\n";
const std::string kNoneType =
    "Content-Type: application/json;odata=nometadata;streaming=true;charset=utf-8\n";

TEST_CASE("table_handlers: Create Table answers 201 with the table and its Location", "[server]") {
  Harness h;
  CHECK(
      h.Call("POST", "Tables", R"J({"TableName":"MyTable"})J") ==
      "201\n"
      "Location: http://127.0.0.1:10002/devstoreaccount1/Tables('MyTable')\n" +
          kMinimalType +
          "\n"
          R"J({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables/@Element","TableName":"MyTable"})J");
}

TEST_CASE("table_handlers: Create Table at full metadata adds odata.type, id and editLink",
          "[server]") {
  Harness h;
  CHECK(
      h.Call("POST", "Tables", R"J({"TableName":"parts"})J", {}, MetadataLevel::kFull) ==
      "201\n"
      "Location: http://127.0.0.1:10002/devstoreaccount1/Tables('parts')\n" +
          kFullType +
          "\n"
          R"J({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables/@Element",)J"
          R"J("odata.type":"devstoreaccount1.Tables",)J"
          R"J("odata.id":"http://127.0.0.1:10002/devstoreaccount1/Tables('parts')",)J"
          R"J("odata.editLink":"Tables('parts')","TableName":"parts"})J");
}

TEST_CASE("table_handlers: Create Table with nometadata has only TableName", "[server]") {
  Harness h;
  CHECK(h.Call("POST", "Tables", R"J({"TableName":"parts"})J", {}, MetadataLevel::kNone) ==
        "201\n"
        "Location: http://127.0.0.1:10002/devstoreaccount1/Tables('parts')\n" +
            kNoneType + "\n" + R"J({"TableName":"parts"})J");
}

TEST_CASE("table_handlers: Create Table with Prefer return-no-content answers 204", "[server]") {
  Harness h;
  CHECK(h.Call("POST", "Tables", R"J({"TableName":"parts"})J", {{"Prefer", "return-no-content"}}) ==
        "204\n"
        "Preference-Applied: return-no-content\n"
        "Location: http://127.0.0.1:10002/devstoreaccount1/Tables('parts')\n");
  CHECK(h.Call("POST", "Tables", R"J({"TableName":"other"})J", {{"Prefer", "return-content"}})
            .starts_with("201\nPreference-Applied: return-content\n"));
}

TEST_CASE("table_handlers: Create Table of an existing name (any case) fails", "[server]") {
  Harness h;
  REQUIRE(h.Run("POST", "Tables", R"J({"TableName":"parts"})J").status == 201);
  CHECK(h.Call("POST", "Tables", R"J({"TableName":"PARTS"})J") == "409 TableAlreadyExists\n");
  CHECK(h.Call("POST", "Tables", R"J({"TableName":"parts"})J", {{"Prefer", "return-no-content"}}) ==
        "409 TableAlreadyExists\nPreference-Applied: return-no-content\n");
}

TEST_CASE("table_handlers: Create Table rejects bad bodies and names", "[server]") {
  Harness h;
  CHECK(h.Call("POST", "Tables", "{") == "400 InvalidInput\n");
  CHECK(h.Call("POST", "Tables", "[]") == "400 InvalidInput\n");
  CHECK(h.Call("POST", "Tables", R"J({"TableName":5})J") == "400 InvalidInput\n");
  CHECK(h.Call("POST", "Tables", R"J({"Name":"abc"})J") == "400 PropertiesNeedValue\n");
  CHECK(h.Call("POST", "Tables", R"J({"TableName":null})J") == "400 PropertiesNeedValue\n");
  CHECK(h.Call("POST", "Tables", R"J({"TableName":"ab"})J") == "400 OutOfRangeInput\n");
  CHECK(h.Call("POST", "Tables", R"J({"TableName":"my_table"})J") == "400 InvalidResourceName\n");
  CHECK(h.Call("POST", "Tables", R"J({"TableName":"tables"})J") == "400 InvalidResourceName\n");
}

TEST_CASE("table_handlers: Delete Table answers 204, then TableNotFound", "[server]") {
  Harness h;
  REQUIRE(h.Run("POST", "Tables", R"J({"TableName":"parts"})J").status == 201);
  CHECK(h.Call("DELETE", "Tables('PARTS')") == "204\n");
  CHECK(h.Call("DELETE", "Tables('parts')") == "404 TableNotFound\n");
  CHECK(h.Call("GET", "Tables('parts')") == "404 TableNotFound\n");
  // The name is free again at once (no TableBeingDeleted window by default).
  CHECK(h.Run("POST", "Tables", R"J({"TableName":"parts"})J").status == 201);
}

TEST_CASE("table_handlers: Get Table answers the table with its stored case", "[server]") {
  Harness h;
  REQUIRE(h.Run("POST", "Tables", R"J({"TableName":"MyParts"})J").status == 201);
  CHECK(
      h.Call("GET", "Tables('myparts')") ==
      "200\n" + kMinimalType + "\n" +
          R"J({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables/@Element","TableName":"MyParts"})J");
}

struct QueryTablesFixture {
  QueryTablesFixture() {
    for (const char* name : {"beta", "Alpha", "gamma", "Delta", "epsilon"}) {
      std::string body = std::string(R"J({"TableName":")J") + name + "\"}";
      REQUIRE(h.Run("POST", "Tables", body).status == 201);
    }
  }
  Harness h;
};

TEST_CASE_METHOD(QueryTablesFixture,
                 "table_handlers: Query Tables lists tables in case-insensitive order",
                 "[server]") {
  CHECK(
      h.Call("GET", "Tables") ==
      "200\n" + kMinimalType + "\n" +
          R"J({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables","value":[)J"
          R"J({"TableName":"Alpha"},{"TableName":"beta"},{"TableName":"Delta"},)J"
          R"J({"TableName":"epsilon"},{"TableName":"gamma"}]})J");
  CHECK(h.Run("GET", "Tables", {}, {}, MetadataLevel::kNone).body ==
        R"J({"value":[{"TableName":"Alpha"},{"TableName":"beta"},{"TableName":"Delta"},)J"
        R"J({"TableName":"epsilon"},{"TableName":"gamma"}]})J");
}

TEST_CASE_METHOD(QueryTablesFixture,
                 "table_handlers: Query Tables at full metadata annotates every table",
                 "[server]") {
  CHECK(
      h.Run("GET", "Tables()?$top=1", {}, {}, MetadataLevel::kFull).body ==
      R"J({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables","value":[)J"
      R"J({"odata.type":"devstoreaccount1.Tables",)J"
      R"J("odata.id":"http://127.0.0.1:10002/devstoreaccount1/Tables('Alpha')",)J"
      R"J("odata.editLink":"Tables('Alpha')","TableName":"Alpha"}]})J");
}

TEST_CASE_METHOD(QueryTablesFixture,
                 "table_handlers: Query Tables pages with $top and NextTableName", "[server]") {
  auto first = h.Run("GET", "Tables?$top=2", {}, {}, MetadataLevel::kNone);
  CHECK(first.body == R"J({"value":[{"TableName":"Alpha"},{"TableName":"beta"}]})J");
  REQUIRE(first.Find("x-ms-continuation-NextTableName") == "Delta");
  auto second = h.Run("GET", "Tables?$top=2&NextTableName=Delta", {}, {}, MetadataLevel::kNone);
  CHECK(second.body == R"J({"value":[{"TableName":"Delta"},{"TableName":"epsilon"}]})J");
  REQUIRE(second.Find("x-ms-continuation-NextTableName") == "gamma");
  auto third = h.Run("GET", "Tables?$top=2&NextTableName=gamma", {}, {}, MetadataLevel::kNone);
  CHECK(third.body == R"J({"value":[{"TableName":"gamma"}]})J");
  CHECK(!third.Find("x-ms-continuation-NextTableName"));
}

TEST_CASE_METHOD(QueryTablesFixture,
                 "table_handlers: Query Tables with $top=0 is an empty page with no continuation",
                 "[server]") {
  auto reply = h.Run("GET", "Tables?$top=0", {}, {}, MetadataLevel::kNone);
  CHECK(reply.status == 200);
  CHECK(reply.body == R"J({"value":[]})J");
  CHECK(!reply.Find("x-ms-continuation-NextTableName"));
}

TEST_CASE_METHOD(QueryTablesFixture, "table_handlers: Query Tables filters on TableName",
                 "[server]") {
  CHECK(
      h.Run("GET", "Tables?$filter=TableName%20eq%20'gamma'", {}, {}, MetadataLevel::kNone).body ==
      R"J({"value":[{"TableName":"gamma"}]})J");
  // Azure: spec §4.1 — the prefix query SDKs send; ordinal compare, so 'Delta' < 'd'.
  CHECK(h.Run("GET", "Tables?$filter=TableName%20ge%20'd'%20and%20TableName%20lt%20'f'", {}, {},
              MetadataLevel::kNone)
            .body == R"J({"value":[{"TableName":"epsilon"}]})J");
  CHECK(h.Call("GET", "Tables?$filter=TableName%20eq") == "400 InvalidInput\n");
}

TEST_CASE_METHOD(QueryTablesFixture, "table_handlers: Query Tables with a filter pages by $top",
                 "[server]") {
  // The continuation names the first table not examined, matching or not.
  auto page =
      h.Run("GET", "Tables?$top=1&$filter=TableName%20ne%20'Alpha'", {}, {}, MetadataLevel::kNone);
  CHECK(page.body == R"J({"value":[{"TableName":"beta"}]})J");
  CHECK(page.Find("x-ms-continuation-NextTableName") == "Delta");
}

TEST_CASE_METHOD(QueryTablesFixture, "table_handlers: Query Tables honours $select", "[server]") {
  CHECK(h.Run("GET", "Tables?$top=1&$select=TableName,Other", {}, {}, MetadataLevel::kNone).body ==
        R"J({"value":[{"TableName":"Alpha","Other":null}]})J");
}

TEST_CASE("table_handlers: Query Tables rejects a $top outside 0..1000", "[server]") {
  Harness h;
  CHECK(h.Run("GET", "Tables?$top=1000").status == 200);
  for (const char* top : {"-1", "1001", "abc", "", "1.5"}) {
    INFO(top);
    CHECK(h.Call("GET", std::string("Tables?$top=") + top) == "400 InvalidInput\n");
  }
}

TEST_CASE("table_handlers: Query Tables of an empty account is an empty feed", "[server]") {
  Harness h;
  CHECK(
      h.Run("GET", "Tables").body ==
      R"J({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables","value":[]})J");
}

}  // namespace
}  // namespace malachite::server
