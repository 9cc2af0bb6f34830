#include "server/ops/entity_ops.h"

#include <catch2/catch.hpp>

#include "server/ops/entity_write.h"
#include "tests/unit/server/handler_harness.h"

namespace malachite::server {
namespace {

using testing::Harness;

const std::string kMinimalType =
    "Content-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8\n";
// The ETags of the first, second, ... write (the clock stands still; each write adds a tick).
const std::string kETag1 = R"J(W/"datetime'2024-05-06T07%3A08%3A09.1234567Z'")J";
const std::string kETag2 = R"J(W/"datetime'2024-05-06T07%3A08%3A09.1234568Z'")J";
const std::string kETag3 = R"J(W/"datetime'2024-05-06T07%3A08%3A09.1234569Z'")J";
const std::string kEntityUrl = "parts(PartitionKey='p',RowKey='r')";

struct EntityFixture {
  EntityFixture() { REQUIRE(h.Run("POST", "Tables", R"J({"TableName":"parts"})J").status == 201); }
  // The entity as Get Entity returns it at nometadata (properties only).
  std::string Show(const std::string& url = kEntityUrl) {
    auto reply = h.Run("GET", url, {}, {}, MetadataLevel::kNone);
    return reply.error_code.empty() ? reply.body : reply.error_code;
  }
  Harness h;
};

TEST_CASE_METHOD(EntityFixture,
                 "entity_handlers: Insert Entity answers 201 with the entity, ETag and Location",
                 "[server]") {
  CHECK(
      h.Call("POST", "parts",
             R"J({"PartitionKey":"p","RowKey":"r","Qty":3,)J"
             R"J("Big@odata.type":"Edm.Int64","Big":"9007199254740993"})J") ==
      "201\n"
      "ETag: " +
          kETag1 +
          "\n"
          "Location: http://127.0.0.1:10002/devstoreaccount1/parts(PartitionKey='p',RowKey='r')\n" +
          kMinimalType + "\n" +
          R"J({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#parts/@Element",)J"
          R"J("odata.etag":"W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"",)J"
          R"J("PartitionKey":"p","RowKey":"r","Timestamp":"2024-05-06T07:08:09.1234567Z",)J"
          R"J("Qty":3,"Big@odata.type":"Edm.Int64","Big":"9007199254740993"})J");
}

TEST_CASE_METHOD(EntityFixture,
                 "entity_handlers: Insert Entity with return-no-content answers 204 with "
                 "DataServiceId",
                 "[server]") {
  CHECK(h.Call("POST", "parts", R"J({"PartitionKey":"a:1","RowKey":"it's","X":1})J",
               {{"Prefer", "return-no-content"}}) ==
        "204\n"
        "Preference-Applied: return-no-content\n"
        "ETag: " +
            kETag1 +
            "\n"
            "Location: http://127.0.0.1:10002/devstoreaccount1/"
            "parts(PartitionKey='a%3A1',RowKey='it%27%27s')\n"
            "DataServiceId: http://127.0.0.1:10002/devstoreaccount1/"
            "parts(PartitionKey='a%3A1',RowKey='it%27%27s')\n");
}

TEST_CASE_METHOD(EntityFixture, "entity_handlers: Insert Entity failures", "[server]") {
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"r"})J").status == 201);
  CHECK(h.Call("POST", "parts", R"J({"PartitionKey":"p","RowKey":"r"})J") ==
        "409 EntityAlreadyExists\n");
  // Azure: spec §4.5 — Preference-Applied also on the failed insert.
  CHECK(h.Call("POST", "parts", R"J({"PartitionKey":"p","RowKey":"r"})J",
               {{"Prefer", "return-no-content"}}) ==
        "409 EntityAlreadyExists\nPreference-Applied: return-no-content\n");
  CHECK(h.Call("POST", "parts", R"J({"PartitionKey":"p"})J") == "400 PropertiesNeedValue\n");
  CHECK(h.Call("POST", "parts", R"J({"RowKey":"r"})J") == "400 PropertiesNeedValue\n");
  CHECK(h.Call("POST", "parts", R"J({"PartitionKey":"p/1","RowKey":"r"})J") ==
        "400 OutOfRangeInput\n");
  CHECK(h.Call("POST", "parts", R"J({"PartitionKey":"p","RowKey":"r2","bad-name":1})J") ==
        "400 PropertyNameInvalid\n");
  CHECK(h.Call("POST", "parts", "not json") == "400 InvalidInput\n");
  CHECK(h.Call("POST", "nosuch", R"J({"PartitionKey":"p","RowKey":"r"})J") ==
        "404 TableNotFound\n");
}

TEST_CASE_METHOD(EntityFixture, "entity_handlers: Update Entity replaces all properties",
                 "[server]") {
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"r","A":1,"B":2})J").status ==
          201);
  CHECK(h.Call("PUT", kEntityUrl, R"J({"B":20,"C":30})J", {{"If-Match", kETag1}}) ==
        "204\nETag: " + kETag2 + "\n");
  CHECK(
      Show() ==
      R"J({"PartitionKey":"p","RowKey":"r","Timestamp":"2024-05-06T07:08:09.1234568Z","B":20,"C":30})J");
}

TEST_CASE_METHOD(EntityFixture, "entity_handlers: If-Match decides Update and Merge", "[server]") {
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"r","A":1})J").status == 201);
  for (const char* method : {"PUT", "MERGE", "PATCH"}) {
    INFO(method);
    CHECK(h.Call(method, kEntityUrl, "{}", {{"If-Match", kETag2}}) ==
          "412 UpdateConditionNotSatisfied\n");
    CHECK(h.Call(method, kEntityUrl, "{}", {{"If-Match", ""}}) ==
          "412 UpdateConditionNotSatisfied\n");
    CHECK(h.Call(method, kEntityUrl, "{}", {{"If-Match", "datetime'x'"}}) == "400 InvalidInput\n");
    CHECK(h.Call(method, "parts(PartitionKey='p',RowKey='none')", "{}", {{"If-Match", "*"}}) ==
          "404 ResourceNotFound\n");
    CHECK(h.Call(method, "nosuch(PartitionKey='p',RowKey='r')", "{}", {{"If-Match", "*"}}) ==
          "404 TableNotFound\n");
  }
  CHECK(h.Call("PUT", kEntityUrl, R"J({"A":2})J", {{"If-Match", "*"}}) ==
        "204\nETag: " + kETag2 + "\n");
  CHECK(h.Call("PUT", kEntityUrl, R"J({"A":3})J", {{"If-Match", kETag1}}) ==
        "412 UpdateConditionNotSatisfied\n");
}

TEST_CASE_METHOD(EntityFixture,
                 "entity_handlers: Merge Entity overwrites supplied properties and keeps the rest",
                 "[server]") {
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"r","A":1,"B":2})J").status ==
          201);
  // Nulls are dropped by the parser: B survives.
  CHECK(h.Call("PATCH", kEntityUrl, R"J({"B":null,"A":10,"C":"new"})J", {{"If-Match", kETag1}}) ==
        "204\nETag: " + kETag2 + "\n");
  CHECK(Show() ==
        R"J({"PartitionKey":"p","RowKey":"r","Timestamp":"2024-05-06T07:08:09.1234568Z",)J"
        R"J("A":10,"B":2,"C":"new"})J");
}

TEST_CASE_METHOD(EntityFixture,
                 "entity_handlers: Insert Or Replace and Insert Or Merge create, then update",
                 "[server]") {
  CHECK(h.Call("PUT", kEntityUrl, R"J({"A":1,"B":2})J") == "204\nETag: " + kETag1 + "\n");
  CHECK(h.Call("PUT", kEntityUrl, R"J({"B":3})J") == "204\nETag: " + kETag2 + "\n");
  CHECK(Show() ==
        R"J({"PartitionKey":"p","RowKey":"r","Timestamp":"2024-05-06T07:08:09.1234568Z","B":3})J");
  CHECK(h.Call("MERGE", kEntityUrl, R"J({"C":4})J") == "204\nETag: " + kETag3 + "\n");
  CHECK(Show() ==
        R"J({"PartitionKey":"p","RowKey":"r","Timestamp":"2024-05-06T07:08:09.1234569Z",)J"
        R"J("B":3,"C":4})J");
  CHECK(h.Call("PATCH", "parts(PartitionKey='p',RowKey='m')", R"J({"D":5})J").starts_with("204\n"));
  CHECK(Show("parts(PartitionKey='p',RowKey='m')").ends_with(R"J("D":5})J"));
  CHECK(h.Call("PUT", "nosuch(PartitionKey='p',RowKey='r')", "{}") == "404 TableNotFound\n");
  CHECK(h.Call("PATCH", "nosuch(PartitionKey='p',RowKey='r')", "{}") == "404 TableNotFound\n");
}

TEST_CASE_METHOD(EntityFixture, "entity_handlers: keys come from the URL, not the body",
                 "[server]") {
  CHECK(h.Call("PUT", kEntityUrl, R"J({"PartitionKey":"other","RowKey":"x","A":1})J")
            .starts_with("204\n"));
  CHECK(Show().starts_with(R"J({"PartitionKey":"p","RowKey":"r",)J"));
  CHECK(Show("parts(PartitionKey='other',RowKey='x')") == "ResourceNotFound");
}

TEST_CASE_METHOD(EntityFixture, "entity_handlers: Delete Entity", "[server]") {
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"r"})J").status == 201);
  CHECK(h.Call("DELETE", kEntityUrl) == "400 MissingRequiredHeader\n");
  CHECK(h.Call("DELETE", kEntityUrl, {}, {{"If-Match", "bogus"}}) == "400 InvalidInput\n");
  CHECK(h.Call("DELETE", kEntityUrl, {}, {{"If-Match", kETag2}}) ==
        "412 UpdateConditionNotSatisfied\n");
  CHECK(h.Call("DELETE", kEntityUrl, {}, {{"If-Match", kETag1}}) == "204\n");
  CHECK(Show() == "ResourceNotFound");
  CHECK(h.Call("DELETE", kEntityUrl, {}, {{"If-Match", "*"}}) == "404 ResourceNotFound\n");
  CHECK(h.Call("DELETE", kEntityUrl, {}, {{"If-Match", kETag1}}) == "404 ResourceNotFound\n");
  CHECK(h.Call("DELETE", "nosuch(PartitionKey='p',RowKey='r')", {}, {{"If-Match", "*"}}) ==
        "404 TableNotFound\n");
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"r"})J").status == 201);
  CHECK(h.Call("DELETE", kEntityUrl, {}, {{"If-Match", "*"}}) == "204\n");
}

TEST_CASE("entity_handlers: EntityPath doubles quotes and percent-encodes keys", "[server]") {
  CHECK(EntityPath("t", "", "") == "t(PartitionKey='',RowKey='')");
  CHECK(EntityPath("t", "a b'c", "é") == "t(PartitionKey='a%20b%27%27c',RowKey='%C3%A9')");
}

}  // namespace
}  // namespace malachite::server
