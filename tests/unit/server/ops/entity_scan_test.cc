// Query Entities over a real store runs the scan plan: it reads only the plan's key ranges (the
// x-malachite-query-plan header and Outcome::query_stats count them), resumes continuations
// across ranges, returns partial pages when the time budget is spent, and for random filters over
// random keys returns exactly what a full scan with Filter::Matches returns.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "common/encoding.h"
#include "common/property_source.h"
#include "common/property_view.h"
#include "odata/evaluator.h"
#include "server/http/url_coding.h"
#include "server/ops/query_log.h"
#include "server/ops/query_ops.h"
#include "tests/unit/server/handler_harness.h"

namespace malachite::server {
namespace {

using testing::Harness;

// An Entity as $filter reads it: PartitionKey and RowKey (String), Timestamp (DateTime) and the
// custom properties. The expected answers are computed with it, away from the server's scan.
class EntitySource final : public PropertySource {
 public:
  explicit EntitySource(const Entity& entity) : entity_(entity) {}
  std::optional<PropertyView> Get(std::string_view name) const override {
    switch (FindSystemProperty(name)) {
      case SystemProperty::kPartitionKey:
        return StringPropertyView(entity_.partition_key);
      case SystemProperty::kRowKey:
        return StringPropertyView(entity_.row_key);
      case SystemProperty::kTimestamp:
        return DateTimePropertyView(entity_.timestamp);
      case SystemProperty::kNone:
        break;
    }
    const Property* property = entity_.Find(name);
    if (property == nullptr) return std::nullopt;
    const EdmValue& value = property->value;
    return PropertyView{value.type, value.integer, value.number, value.bytes};
  }

 private:
  const Entity& entity_;
};

struct PlanFixture {
  PlanFixture() { REQUIRE(h.Run("POST", "Tables", R"J({"TableName":"parts"})J").status == 201); }

  // Stores the entities (Timestamps from the store) in one write.
  void Put(const std::vector<Entity>& entities) {
    auto written = h.store().Write([&](storage::WriteContext& write) -> Result<void> {
      auto table = write.FindTable("devstoreaccount1", "parts");
      if (!table || !*table) return Fail(ErrorCode::kInternalError);
      for (Entity entity : entities) {
        entity.timestamp = write.NextTimestamp();
        if (auto put = write.PutEntity(**table, entity); !put) return put;
      }
      return {};
    });
    REQUIRE(written);
  }
  // `count` entities p<i/100>/r<i%100> (zero-padded) with N=i.
  void Fill(int count) {
    std::vector<Entity> entities;
    for (int i = 0; i < count; ++i) {
      char pk[16], rk[16];
      std::snprintf(pk, sizeof pk, "p%03d", i / 100);
      std::snprintf(rk, sizeof rk, "r%03d", i % 100);
      Entity entity;
      entity.partition_key = pk;
      entity.row_key = rk;
      entity.properties.push_back({"N", EdmValue::Int32(i)});
      entities.push_back(std::move(entity));
    }
    Put(entities);
  }
  // The x-malachite-query-plan of `GET parts?$filter=<filter>` (h.explain on).
  std::string Explain(const std::string& filter, const std::string& extra = "") {
    h.explain = true;
    auto reply = h.Run("GET", "parts?$filter=" + PercentEncode(filter) + extra);
    REQUIRE(reply.status == 200);
    auto plan = reply.Find(std::string(kQueryPlanHeader));
    REQUIRE(plan);
    return std::string(*plan);
  }
  // Follows continuations from `target`: the N values in order, and the number of pages.
  std::pair<std::vector<int>, int> ReadAll(const std::string& target) {
    return testing::ReadAllPages(h, target);
  }
  Harness h;
};

TEST_CASE_METHOD(PlanFixture, "query plan: each query shape scans only its key ranges",
                 "[server]") {
  Fill(300);
  CHECK(Explain("PartitionKey eq 'p001' and RowKey eq 'r005'") ==
        "plan=point service=point ranges=['p001'/'r005'] residual=none scanned=1 returned=1");
  CHECK(Explain("PartitionKey eq 'p001' and RowKey ge 'r010' and RowKey lt 'r020'") ==
        "plan=row-range service=row-range ranges=[['p001'/'r010' .. 'p001'/'r020')] "
        "residual=none scanned=10 returned=10");
  CHECK(Explain("PartitionKey eq 'p001' and N ge 150") ==
        "plan=partition service=partition-scan ranges=['p001'/*] residual=(and (eq PartitionKey "
        "'p001') (ge N 150:Int32)) scanned=100 returned=50");
  CHECK(Explain("PartitionKey ge 'p001'") ==
        "plan=partition-range service=partition-range ranges=[['p001'/* .. +inf)] residual=none "
        "scanned=200 returned=200");
  CHECK(Explain("PartitionKey eq 'p002' and (RowKey eq 'r001' or RowKey eq 'r099' or RowKey eq "
                "'zzz')") ==
        "plan=points(3) service=partition-scan ranges=['p002'/'r001', 'p002'/'r099', "
        "'p002'/'zzz'] residual=none scanned=2 returned=2");
  CHECK(Explain("N eq 5") ==
        "plan=table-scan service=table-scan ranges=[(-inf .. +inf)] residual=(eq N 5:Int32) "
        "scanned=300 returned=1");
  CHECK(Explain("PartitionKey eq 5") ==
        "plan=empty service=table-scan ranges=[] residual=none scanned=0 returned=0");
}

TEST_CASE_METHOD(PlanFixture, "query plan: the plan header is off by default, stats always set",
                 "[server]") {
  Fill(10);
  auto reply = h.Run("GET", "parts?$filter=" + PercentEncode("PartitionKey eq 'p000' and N lt 3"));
  CHECK(!reply.Find(std::string(kQueryPlanHeader)));
  REQUIRE(reply.query_stats);
  CHECK(reply.query_stats->scanned == 10);
  CHECK(reply.query_stats->returned == 3);
  h.explain = true;
  auto all = h.Run("GET", "parts?$top=4");
  CHECK(all.Find(std::string(kQueryPlanHeader)) ==
        "plan=table-scan service=table-scan ranges=[(-inf .. +inf)] residual=none scanned=4 "
        "returned=4");
  auto point = h.Run("GET", "parts(PartitionKey='p000',RowKey='r001')");
  REQUIRE(point.query_stats);
  CHECK(point.query_stats->scanned == 1);
}

TEST_CASE_METHOD(PlanFixture, "query plan: continuations resume across ranges exactly once",
                 "[server]") {
  Fill(300);
  const std::string filter = PercentEncode(
      "(PartitionKey eq 'p000' and RowKey lt 'r003') or (PartitionKey eq 'p002' and RowKey ge "
      "'r097')");
  // A page that fills at the end of a range continues at the first entity of the next range.
  auto first =
      h.Run("GET", "parts?$top=3&$select=N&$filter=" + filter, {}, {}, MetadataLevel::kNone);
  CHECK(first.body == R"J({"value":[{"N":0},{"N":1},{"N":2}]})J");
  CHECK(first.Find("x-ms-continuation-NextPartitionKey") == EncodeContinuationKey("p002"));
  CHECK(first.Find("x-ms-continuation-NextRowKey") == EncodeContinuationKey("r097"));
  for (int top : {1, 2, 3, 4, 5, 1000}) {
    auto [values, pages] =
        ReadAll("parts?$select=N&$top=" + std::to_string(top) + "&$filter=" + filter);
    CHECK(values == std::vector<int>{0, 1, 2, 297, 298, 299});
    CHECK(pages == (6 + top - 1) / top);
  }
  // NextPartitionKey alone starts at the partition; a key past every range ends the query.
  auto partition = h.Run(
      "GET",
      "parts?$select=N&$filter=" + filter + "&NextPartitionKey=" + EncodeContinuationKey("p001"),
      {}, {}, MetadataLevel::kNone);
  CHECK(partition.body == R"J({"value":[{"N":297},{"N":298},{"N":299}]})J");
  auto past =
      h.Run("GET",
            "parts?$filter=" + filter + "&NextPartitionKey=" + EncodeContinuationKey("p003") +
                "&NextRowKey=" + EncodeContinuationKey(""),
            {}, {}, MetadataLevel::kNone);
  CHECK(past.body == R"J({"value":[]})J");
  CHECK(!past.Find("x-ms-continuation-NextPartitionKey"));
}

TEST_CASE_METHOD(PlanFixture, "query plan: a spent time budget returns a partial page that resumes",
                 "[server]") {
  Fill(3000);
  h.query_budget = std::chrono::milliseconds(0);
  // No match at all: empty pages, each with a continuation, until the table is done.
  auto [none, none_pages] = ReadAll("parts?$filter=N%20lt%200");
  CHECK(none.empty());
  CHECK(none_pages > 5);
  auto first = h.Run("GET", "parts?$filter=N%20lt%200");
  CHECK(first.Find("x-ms-continuation-NextPartitionKey"));
  REQUIRE(first.query_stats);
  CHECK(first.query_stats->scanned < 3000);
  // Every match exactly once, in order, across partial pages.
  auto [all, all_pages] = ReadAll("parts?$select=N&$filter=N%20ge%200");
  std::vector<int> expected(3000);
  for (int i = 0; i < 3000; ++i) expected[i] = i;
  CHECK(all == expected);
  CHECK(all_pages > 3);
}

TEST_CASE("query plan: Query Tables plans TableName filters", "[server]") {
  Harness h;
  for (const char* name : {"Alpha", "alpha2", "beta", "Gamma"}) {
    REQUIRE(h.Run("POST", "Tables", std::string(R"J({"TableName":")J") + name + "\"}").status ==
            201);
  }
  h.explain = true;
  auto query = [&](const std::string& filter, const std::string& extra = "") {
    auto reply = h.Run("GET", "Tables?$filter=" + PercentEncode(filter) + extra, {}, {},
                       MetadataLevel::kNone);
    REQUIRE(reply.status == 200);
    return reply.body + " " + std::string(reply.Find(std::string(kQueryPlanHeader)).value_or(""));
  };
  CHECK(query("TableName eq 'beta'") ==
        R"J({"value":[{"TableName":"beta"}]} plan=partition ranges=['beta'/*] residual=none )J"
        "scanned=1 returned=1");
  // Filters compare case-sensitively although the catalog finds names in any case.
  CHECK(query("TableName eq 'BETA'") ==
        R"J({"value":[]} plan=partition ranges=['BETA'/*] residual=none scanned=1 returned=0)J");
  CHECK(query("TableName eq 'nosuch'") ==
        R"J({"value":[]} plan=partition ranges=['nosuch'/*] residual=none scanned=0 returned=0)J");
  CHECK(query("TableName eq 'beta'", "&NextTableName=gamma") ==
        R"J({"value":[]} plan=partition ranges=['beta'/*] residual=none scanned=0 returned=0)J");
  CHECK(query("TableName ge 'a' and TableName lt 'c'") ==
        R"J({"value":[{"TableName":"alpha2"},{"TableName":"beta"}]} plan=partition-range )J"
        R"J(ranges=[['a'/* .. 'c'/*)] residual=none scanned=4 returned=2)J");
  CHECK(query("TableName eq 5") ==
        R"J({"value":[]} plan=empty ranges=[] residual=none scanned=0 returned=0)J");
}

// ---- Random filters over random keys, through storage's key encoding ----

// Key material whose UTF-16 order differs from code point order (U+E000, U+FF01 sort after
// U+1F600) plus prefixes and the empty key. All valid key characters.
const std::vector<std::string> kAlphabet = {"",
                                            "a",
                                            "ab",
                                            "b",
                                            "m",
                                            "z",
                                            "\xEE\x80\x80",
                                            "\xF0\x9F\x98\x80",
                                            "\xEF\xBC\x81",
                                            "a\xF0\x9F\x98\x80",
                                            "~",
                                            "A_1",
                                            "A`"};

std::string RandomFilter(std::mt19937& rng, int depth, int* budget) {
  auto pick = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  };
  if (depth == 0 || *budget <= 1 || pick(3) == 0) {
    --*budget;
    static constexpr const char* kProps[] = {"PartitionKey", "PartitionKey", "RowKey", "RowKey",
                                             "N"};
    static constexpr const char* kOps[] = {"eq", "ne", "gt", "ge", "lt", "le"};
    const std::size_t prop = pick(5);
    std::string literal = prop == 4 || pick(8) == 0 ? std::to_string(pick(40))
                                                    : "'" + kAlphabet[pick(kAlphabet.size())] + "'";
    return std::string(kProps[prop]) + " " + kOps[pick(6)] + " " + literal;
  }
  switch (pick(3)) {
    case 0:
      return "not (" + RandomFilter(rng, depth - 1, budget) + ")";
    case 1:
      return "(" + RandomFilter(rng, depth - 1, budget) + ") and (" +
             RandomFilter(rng, depth - 1, budget) + ")";
    default:
      return "(" + RandomFilter(rng, depth - 1, budget) + ") or (" +
             RandomFilter(rng, depth - 1, budget) + ")";
  }
}

TEST_CASE_METHOD(PlanFixture,
                 "query plan: random filters over random keys return what a full scan returns",
                 "[server]") {
  std::mt19937 rng(7);
  std::vector<Entity> entities;
  for (const std::string& pk : kAlphabet) {
    for (const std::string& rk : kAlphabet) {
      if (rng() % 3 == 0) continue;
      Entity entity;
      entity.partition_key = pk;
      entity.row_key = rk;
      entity.properties.push_back({"N", EdmValue::Int32(static_cast<int>(entities.size()))});
      entities.push_back(std::move(entity));
    }
  }
  Put(entities);
  std::sort(entities.begin(), entities.end(), [](const Entity& a, const Entity& b) {
    const int pk = CompareUtf16Order(a.partition_key, b.partition_key);
    return pk != 0 ? pk < 0 : CompareUtf16Order(a.row_key, b.row_key) < 0;
  });
  for (int iteration = 0; iteration < 300; ++iteration) {
    int budget = 15;
    const std::string text = RandomFilter(rng, 4, &budget);
    auto filter = odata::Filter::Parse(text);
    REQUIRE(filter);
    std::vector<int> expected;
    for (const Entity& entity : entities) {
      if (filter->Matches(EntitySource(entity))) {
        expected.push_back(static_cast<int>(entity.properties.front().value.integer));
      }
    }
    const std::string top = std::to_string(1 + rng() % 7);
    INFO(text << " $top=" << top);
    auto [values, pages] =
        ReadAll("parts?$select=N&$top=" + top + "&$filter=" + PercentEncode(text));
    REQUIRE(values == expected);
  }
}

}  // namespace
}  // namespace malachite::server
