#include "server/ops/query_ops.h"

#include <catch2/catch.hpp>

#include "common/encoding.h"
#include "server/http/url_coding.h"
#include "server/ops/entity_apply.h"
#include "tests/unit/server/handler_harness.h"

namespace malachite::server {
namespace {

using testing::Harness;

const std::string kMinimalType =
    "Content-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8\n";
const std::string kETag1 = R"J(W/"datetime'2024-05-06T07%3A08%3A09.1234567Z'")J";

struct QueryFixture {
  QueryFixture() { REQUIRE(h.Run("POST", "Tables", R"J({"TableName":"parts"})J").status == 201); }
  // Inserts `count` entities p<i/100>/r<i%100> (zero-padded) with N=i in one write.
  void Fill(int count) {
    auto result = h.store().Write([count](storage::WriteContext& write) -> Result<void> {
      auto table = write.FindTable("devstoreaccount1", "parts");
      if (!table || !*table) return Fail(ErrorCode::kInternalError);
      for (int i = 0; i < count; ++i) {
        Entity entity;
        char key[16];
        std::snprintf(key, sizeof key, "p%03d", i / 100);
        entity.partition_key = key;
        std::snprintf(key, sizeof key, "r%03d", i % 100);
        entity.row_key = key;
        entity.properties.push_back({"N", EdmValue::Int32(i)});
        if (auto put = ApplyInsertOrReplace(write, **table, entity); !put) {
          return tl::unexpected(put.error());
        }
      }
      return {};
    });
    REQUIRE(result);
  }
  // Follows continuations from `target`: the N values in order, and the number of pages.
  std::pair<std::vector<int>, int> ReadAll(const std::string& target) {
    return testing::ReadAllPages(h, target);
  }
  Harness h;
};

std::vector<int> Range(int from, int to, int step = 1) {
  std::vector<int> out;
  for (int i = from; i < to; i += step) out.push_back(i);
  return out;
}

TEST_CASE_METHOD(QueryFixture,
                 "query_handlers: paging over 2500 entities returns each exactly once, in order",
                 "[server]") {
  Fill(2500);
  auto [all, pages] = ReadAll("parts()?");
  CHECK(all == Range(0, 2500));
  CHECK(pages == 3);  // 1000 + 1000 + 500

  auto [small, small_pages] = ReadAll("parts?$top=7");
  CHECK(small == Range(0, 2500));
  CHECK(small_pages == 358);  // ceil(2500 / 7)

  // With a filter the page still holds $top matches; the continuation is the next key examined.
  auto [odd, odd_pages] = ReadAll("parts?$top=100&$filter=N%20ge%202000");
  CHECK(odd == Range(2000, 2500));
}

TEST_CASE_METHOD(QueryFixture, "query_handlers: an exactly full last page has no continuation",
                 "[server]") {
  Fill(10);
  auto reply = h.Run("GET", "parts?$top=10");
  CHECK(!reply.Find("x-ms-continuation-NextPartitionKey"));
  auto [values, pages] = ReadAll("parts?$top=5");
  CHECK(values == Range(0, 10));
  CHECK(pages == 2);
}

TEST_CASE_METHOD(QueryFixture, "query_handlers: $top=0 is an empty page with no continuation",
                 "[server]") {
  Fill(10);
  // Azure: spec §6.5 — 200 and no entities (Azure/Azurite#1428); the filter is still checked.
  auto reply = h.Run("GET", "parts?$top=0&$filter=N%20ge%203", {}, {}, MetadataLevel::kNone);
  CHECK(reply.status == 200);
  CHECK(reply.body == R"J({"value":[]})J");
  CHECK(!reply.Find("x-ms-continuation-NextPartitionKey"));
  CHECK(h.Call("GET", "parts?$top=0&$filter=N%20eq") == "400 InvalidInput\n");
  CHECK(h.Call("GET", "nosuch?$top=0") == "404 TableNotFound\n");
}

TEST_CASE_METHOD(QueryFixture, "query_handlers: the continuation resumes at its key, inclusive",
                 "[server]") {
  Fill(300);
  auto reply = h.Run("GET",
                     "parts?$top=2&NextPartitionKey=" + EncodeContinuationKey("p001") +
                         "&NextRowKey=" + EncodeContinuationKey("r050"),
                     {}, {}, MetadataLevel::kNone);
  CHECK(
      reply.body ==
      R"J({"value":[{"PartitionKey":"p001","RowKey":"r050","Timestamp":"2024-05-06T07:08:09.1234717Z","N":150},)J"
      R"J({"PartitionKey":"p001","RowKey":"r051","Timestamp":"2024-05-06T07:08:09.1234718Z","N":151}]})J");
  CHECK(reply.Find("x-ms-continuation-NextPartitionKey") == EncodeContinuationKey("p001"));
  CHECK(reply.Find("x-ms-continuation-NextRowKey") == EncodeContinuationKey("r052"));
  // Azure: spec §6.5 — NextPartitionKey alone means the start of that partition.
  auto partition =
      h.Run("GET", "parts?$top=1&$select=N&NextPartitionKey=" + EncodeContinuationKey("p002"), {},
            {}, MetadataLevel::kNone);
  CHECK(partition.body == R"J({"value":[{"N":200}]})J");
}

TEST_CASE_METHOD(QueryFixture,
                 "query_handlers: a page mixes point reads and scanned rows in key order",
                 "[server]") {
  // ASCII keys are rendered from LMDB memory as stored; U+E000 (stored with a remapped lead byte)
  // and \u00e9 are decoded first; a point read renders the entity it decoded.
  for (const char* body : {R"J({"PartitionKey":"a","RowKey":"\u00e9","N":1})J",
                           R"J({"PartitionKey":"b","RowKey":"plain","N":2})J",
                           R"J({"PartitionKey":"c\ue000","RowKey":"r","N":3})J",
                           R"J({"PartitionKey":"c\ue000","RowKey":"s","N":4})J",
                           R"J({"PartitionKey":"d","RowKey":"long ASCII row key","N":5})J"}) {
    REQUIRE(h.Run("POST", "parts", body).status == 201);
  }
  const std::string filter =
      "(PartitionKey eq 'a' and RowKey eq '\u00e9') or (PartitionKey eq 'c\ue000' and RowKey eq "
      "'s') or PartitionKey ge 'd' or (PartitionKey eq 'b' and RowKey eq 'plain')";
  auto reply = h.Run("GET", "parts?$select=PartitionKey,RowKey,N&$filter=" + PercentEncode(filter),
                     {}, {}, MetadataLevel::kNone);
  REQUIRE(reply.status == 200);
  CHECK(reply.body ==
        "{\"value\":[{\"PartitionKey\":\"a\",\"RowKey\":\"\u00e9\",\"N\":1},"
        "{\"PartitionKey\":\"b\",\"RowKey\":\"plain\",\"N\":2},"
        "{\"PartitionKey\":\"c\ue000\",\"RowKey\":\"s\",\"N\":4},"
        "{\"PartitionKey\":\"d\",\"RowKey\":\"long ASCII row key\",\"N\":5}]}");
  // A page that ends at a point read names it as the continuation.
  auto first = h.Run("GET", "parts?$top=1&$select=N&$filter=" + PercentEncode(filter), {}, {},
                     MetadataLevel::kNone);
  CHECK(first.body == R"J({"value":[{"N":1}]})J");
  CHECK(first.Find("x-ms-continuation-NextPartitionKey") == EncodeContinuationKey("b"));
  CHECK(first.Find("x-ms-continuation-NextRowKey") == EncodeContinuationKey("plain"));
}

TEST_CASE_METHOD(QueryFixture, "query_handlers: Query Entities renders the feed", "[server]") {
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"r","A":"x"})J").status == 201);
  CHECK(
      h.Call("GET", "parts()") ==
      "200\n" + kMinimalType + "\n" +
          R"J({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#parts","value":[)J"
          R"J({"odata.etag":"W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"",)J"
          R"J("PartitionKey":"p","RowKey":"r","Timestamp":"2024-05-06T07:08:09.1234567Z","A":"x"}]})J");
}

TEST_CASE_METHOD(QueryFixture, "query_handlers: $filter sees keys, Timestamp and properties",
                 "[server]") {
  Fill(250);
  auto count = [&](const std::string& filter) {
    return h
        .Run("GET", "parts?$select=N&$filter=" + PercentEncode(filter), {}, {},
             MetadataLevel::kNone)
        .body;
  };
  CHECK(count("PartitionKey eq 'p002' and RowKey lt 'r003'") ==
        R"J({"value":[{"N":200},{"N":201},{"N":202}]})J");
  CHECK(count("N eq 7 or N eq 249") == R"J({"value":[{"N":7},{"N":249}]})J");
  CHECK(count("Timestamp lt datetime'2024-05-06T07:08:09.1234569Z'") ==
        R"J({"value":[{"N":0},{"N":1}]})J");
  CHECK(count("Missing eq 1") == R"J({"value":[]})J");
}

TEST_CASE_METHOD(QueryFixture, "query_handlers: $select returns missing properties as null",
                 "[server]") {
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"r","A":1})J").status == 201);
  CHECK(h.Run("GET", "parts?$select=A,Missing,RowKey", {}, {}, MetadataLevel::kNone).body ==
        R"J({"value":[{"RowKey":"r","A":1,"Missing":null}]})J");
}

TEST_CASE_METHOD(QueryFixture, "query_handlers: Query Entities errors", "[server]") {
  CHECK(h.Call("GET", "nosuch()") == "404 TableNotFound\n");
  CHECK(h.Call("GET", "parts?$top=-1") == "400 InvalidInput\n");
  CHECK(h.Call("GET", "parts?$top=1001") == "400 InvalidInput\n");
  CHECK(h.Call("GET", "parts?$filter=N%20eq") == "400 InvalidInput\n");
  CHECK(h.Call("GET", "parts?NextPartitionKey=raw") == "400 InvalidInput\n");
  CHECK(h.Call("GET", "parts?NextPartitionKey=1!a") == "400 InvalidInput\n");
  CHECK(h.Call("GET", "parts?NextPartitionKey=1!cDE&NextRowKey=x") == "400 InvalidInput\n");
  CHECK(
      h.Call("GET", "parts?NextPartitionKey=1!cDE&NextRowKey=1!") ==
      "200\n" + kMinimalType + "\n" +
          R"J({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#parts","value":[]})J");
}

TEST_CASE("query_handlers: continuation tokens round-trip any key", "[server]") {
  for (std::string key : {std::string(), std::string("p"), std::string("ab"), std::string("abc"),
                          std::string("\x01\xff/?#'+ x", 9)}) {
    INFO(key);
    const std::string token = EncodeContinuationKey(key);
    CHECK(token.starts_with("1!"));
    CHECK(token.find_first_of("+/=") == std::string::npos);
    CHECK(DecodeContinuationKey(token) == key);
  }
  CHECK(EncodeContinuationKey("p1") == "1!cDE");
}

TEST_CASE_METHOD(QueryFixture, "query_handlers: Get Entity answers one entity with its ETag",
                 "[server]") {
  REQUIRE(h.Run("POST", "parts", R"J({"PartitionKey":"p","RowKey":"r","A":1})J").status == 201);
  CHECK(
      h.Call("GET", "parts(PartitionKey='p',RowKey='r')") ==
      "200\n" + kMinimalType + "ETag: " + kETag1 + "\n\n" +
          R"J({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#parts/@Element",)J"
          R"J("odata.etag":"W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"",)J"
          R"J("PartitionKey":"p","RowKey":"r","Timestamp":"2024-05-06T07:08:09.1234567Z","A":1})J");
  CHECK(h.Run("GET", "parts(PartitionKey='p',RowKey='r')?$select=B,A", {}, {}, MetadataLevel::kNone)
            .body == R"J({"B":null,"A":1})J");
  CHECK(h.Call("GET", "parts(PartitionKey='p',RowKey='x')") == "404 ResourceNotFound\n");
  CHECK(h.Call("GET", "nosuch(PartitionKey='p',RowKey='r')") == "404 TableNotFound\n");
}

TEST_CASE_METHOD(QueryFixture,
                 "query_handlers: a queried entity renders exactly as Get Entity renders it, for "
                 "every EDM type, metadata level and $select",
                 "[server]") {
  // The feed renders from stored records, Get Entity from a decoded Entity: same bytes.
  const std::string body =
      R"J({"PartitionKey":"p","RowKey":"r","S":"a\"b\\c\u0001\n\u2028\u00e9","I":-5,)J"
      R"J("L@odata.type":"Edm.Int64","L":"-9223372036854775808","D":1.25,"W":3.0,"E":1e20,)J"
      R"J("Tiny":1.5e-7,"N@odata.type":"Edm.Double","N":"NaN","P@odata.type":"Edm.Double",)J"
      R"J("P":"Infinity","M@odata.type":"Edm.Double","M":"-Infinity","Z":-0.0,"B":false,)J"
      R"J("T@odata.type":"Edm.DateTime","T":"2024-01-02T03:04:05.678Z",)J"
      R"J("G@odata.type":"Edm.Guid","G":"0f8fad5b-d9cb-469f-a165-70867728950e",)J"
      R"J("X@odata.type":"Edm.Binary","X":"AQID","Empty":""})J";
  REQUIRE(h.Run("POST", "parts", body).status == 201);
  for (MetadataLevel level :
       {MetadataLevel::kNone, MetadataLevel::kMinimal, MetadataLevel::kFull}) {
    for (std::string select : {"", "?$select=I,Missing,Timestamp,X,RowKey"}) {
      std::string got =
          h.Run("GET", "parts(PartitionKey='p',RowKey='r')" + select, {}, {}, level).body;
      const std::string queried = h.Run("GET", "parts()" + select, {}, {}, level).body;
      // Get Entity's object without its odata.metadata member, the feed's only element.
      if (const auto url = got.find(R"J("odata.metadata":")J"); url != std::string::npos) {
        got.erase(url, got.find("\",", url) + 2 - url);
      }
      const auto start = queried.find("\"value\":[") + 9;
      INFO(queried);
      CHECK(queried.substr(start, queried.size() - 2 - start) == got);
    }
  }
}

}  // namespace
}  // namespace malachite::server
