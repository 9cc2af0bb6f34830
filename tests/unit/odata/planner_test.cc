// The scan planner: golden dumps for every plan shape, and properties — executing a plan (its
// ranges, then its residual) returns exactly what a full scan with Filter::Matches returns.
#include "odata/planner.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "common/encoding.h"
#include "odata/evaluator.h"
#include "tests/unit/odata/test_row.h"

namespace malachite::odata {
namespace {

using testing::TestRow;

std::string PlanDump(std::string_view text) {
  auto filter = Filter::Parse(text);
  REQUIRE(filter);
  return ScanPlan::Make(&*filter).Dump();
}

TEST_CASE("planner: no filter scans the whole table without a residual", "[odata]") {
  CHECK(ScanPlan::Make(nullptr).Dump() ==
        "plan=table-scan service=table-scan ranges=[(-inf .. +inf)] residual=none");
}

TEST_CASE("planner: PartitionKey and RowKey eq make a point lookup", "[odata]") {
  CHECK(PlanDump("PartitionKey eq 'a' and RowKey eq '1'") ==
        "plan=point service=point ranges=['a'/'1'] residual=none");
  CHECK(PlanDump("RowKey eq '1' and PartitionKey eq 'a' and Qty gt 5") ==
        "plan=point service=point ranges=['a'/'1'] residual=(and (and (eq RowKey '1') (eq "
        "PartitionKey 'a')) (gt Qty 5:Int32))");
}

TEST_CASE("planner: PartitionKey eq alone scans one partition", "[odata]") {
  CHECK(PlanDump("PartitionKey eq 'a'") ==
        "plan=partition service=partition-scan ranges=['a'/*] residual=none");
  CHECK(PlanDump("PartitionKey eq 'a' and Qty eq 1") ==
        "plan=partition service=partition-scan ranges=['a'/*] residual=(and (eq PartitionKey "
        "'a') (eq Qty 1:Int32))");
}

TEST_CASE("planner: RowKey bounds inside one partition make a row range", "[odata]") {
  CHECK(PlanDump("PartitionKey eq 'a' and RowKey ge 'A_' and RowKey lt 'A`'") ==
        "plan=row-range service=row-range ranges=[['a'/'A_' .. 'a'/'A`')] residual=none");
  CHECK(PlanDump("PartitionKey eq 'a' and RowKey gt '5'") ==
        "plan=row-range service=row-range ranges=[('a'/'5' .. 'a'/*]] residual=none");
  CHECK(PlanDump("PartitionKey eq 'a' and RowKey le '5'") ==
        "plan=row-range service=row-range ranges=[['a'/* .. 'a'/'5']] residual=none");
  // The literal may come first: the parser flips it.
  CHECK(PlanDump("'a' eq PartitionKey and '5' lt RowKey") ==
        "plan=row-range service=row-range ranges=[('a'/'5' .. 'a'/*]] residual=none");
}

TEST_CASE("planner: PartitionKey bounds make a partition range", "[odata]") {
  CHECK(PlanDump("PartitionKey ge 'p1' and PartitionKey lt 'p3'") ==
        "plan=partition-range service=partition-range ranges=[['p1'/* .. 'p3'/*)] residual=none");
  CHECK(PlanDump("PartitionKey gt 'p1'") ==
        "plan=partition-range service=partition-range ranges=[('p1'/* .. +inf)] residual=none");
  CHECK(PlanDump("PartitionKey le 'p1'") ==
        "plan=partition-range service=partition-range ranges=[(-inf .. 'p1'/*]] residual=none");
  // RowKey bounds tighten the ends inside the edge partitions only, so a residual stays.
  CHECK(PlanDump("PartitionKey ge 'p1' and PartitionKey le 'p3' and RowKey ge 'm'") ==
        "plan=partition-range service=partition-range ranges=[['p1'/'m' .. 'p3'/*]] "
        "residual=(and (and (ge PartitionKey 'p1') (le PartitionKey 'p3')) (ge RowKey 'm'))");
}

TEST_CASE("planner: an or over RowKeys is several points, but a partition scan for the service",
          "[odata]") {
  CHECK(PlanDump("PartitionKey eq 'a' and (RowKey eq '2' or RowKey eq '1')") ==
        "plan=points(2) service=partition-scan ranges=['a'/'1', 'a'/'2'] residual=none");
  CHECK(PlanDump("(PartitionKey eq 'b' and RowKey eq '1') or (PartitionKey eq 'a' and RowKey eq "
                 "'9')") ==
        "plan=points(2) service=table-scan ranges=['a'/'9', 'b'/'1'] residual=none");
}

TEST_CASE("planner: an or of partitions and ranges is merged, sorted and disjoint", "[odata]") {
  CHECK(PlanDump("PartitionKey eq 'c' or PartitionKey eq 'a' or PartitionKey eq 'c'") ==
        "plan=ranges(2) service=table-scan ranges=['a'/*, 'c'/*] residual=none");
  CHECK(PlanDump("(PartitionKey ge 'a' and PartitionKey lt 'c') or (PartitionKey ge 'b' and "
                 "PartitionKey le 'd')") ==
        "plan=partition-range service=table-scan ranges=[['a'/* .. 'd'/*]] residual=none");
  // Touching ranges merge too: [a, b) + [b, c].
  CHECK(PlanDump("(PartitionKey ge 'a' and PartitionKey lt 'b') or (PartitionKey ge 'b' and "
                 "PartitionKey le 'c')") ==
        "plan=partition-range service=table-scan ranges=[['a'/* .. 'c'/*]] residual=none");
  CHECK(PlanDump("PartitionKey eq 'a' and RowKey eq '1' or PartitionKey eq 'a'") ==
        "plan=partition service=table-scan ranges=['a'/*] residual=none");
}

TEST_CASE("planner: ne on a key is the two ranges around it", "[odata]") {
  CHECK(PlanDump("PartitionKey ne 'm'") ==
        "plan=ranges(2) service=table-scan ranges=[(-inf .. 'm'/*), ('m'/* .. +inf)] "
        "residual=none");
  CHECK(PlanDump("PartitionKey eq 'a' and RowKey ne '5'") ==
        "plan=ranges(2) service=partition-scan ranges=[['a'/* .. 'a'/'5'), ('a'/'5' .. 'a'/*]] "
        "residual=none");
}

TEST_CASE("planner: not is pushed down to the key comparisons", "[odata]") {
  CHECK(PlanDump("not (PartitionKey lt 'm')") ==
        "plan=partition-range service=table-scan ranges=[['m'/* .. +inf)] residual=none");
  CHECK(PlanDump("not (PartitionKey ne 'a' or RowKey ne '1')") ==
        "plan=point service=table-scan ranges=['a'/'1'] residual=none");
  CHECK(PlanDump("not (Qty eq 1) and PartitionKey eq 'a'") ==
        "plan=partition service=partition-scan ranges=['a'/*] residual=(and (not (eq Qty "
        "1:Int32)) (eq PartitionKey 'a'))");
}

TEST_CASE("planner: contradictions and keys against other types match nothing", "[odata]") {
  CHECK(PlanDump("PartitionKey eq 'a' and PartitionKey eq 'b'") ==
        "plan=empty service=partition-scan ranges=[] residual=none");
  CHECK(PlanDump("RowKey lt ''") == "plan=empty service=table-scan ranges=[] residual=none");
  CHECK(PlanDump("PartitionKey eq 5") == "plan=empty service=table-scan ranges=[] residual=none");
  // Azure: spec §6.2 (rec.) — String ranks above other types, so these hold for every key.
  CHECK(PlanDump("PartitionKey gt 5 and RowKey ne 1L") ==
        "plan=table-scan service=table-scan ranges=[(-inf .. +inf)] residual=none");
  CHECK(PlanDump("not (PartitionKey ge true)") ==
        "plan=empty service=table-scan ranges=[] residual=none");
}

TEST_CASE("planner: boolean constants plan to everything or nothing, exactly", "[odata]") {
  CHECK(PlanDump("false") == "plan=empty service=table-scan ranges=[] residual=none");
  CHECK(PlanDump("not true") == "plan=empty service=table-scan ranges=[] residual=none");
  CHECK(PlanDump("true") ==
        "plan=table-scan service=table-scan ranges=[(-inf .. +inf)] residual=none");
  CHECK(PlanDump("not false") ==
        "plan=table-scan service=table-scan ranges=[(-inf .. +inf)] residual=none");
  CHECK(PlanDump("true and PartitionKey eq 'a' and RowKey eq '1'") ==
        "plan=point service=point ranges=['a'/'1'] residual=none");
  CHECK(PlanDump("false or PartitionKey eq 'a' or PartitionKey eq 'b'") ==
        "plan=ranges(2) service=table-scan ranges=['a'/*, 'b'/*] residual=none");
  CHECK(PlanDump("PartitionKey eq 'a' and false") ==
        "plan=empty service=partition-scan ranges=[] residual=none");
  CHECK(PlanDump("true and Qty gt 5") ==
        "plan=table-scan service=table-scan ranges=[(-inf .. +inf)] residual=(and true (gt Qty "
        "5:Int32))");
}

TEST_CASE("planner: non-key conditions and or across them fall back to a table scan", "[odata]") {
  CHECK(PlanDump("Qty gt 5") ==
        "plan=table-scan service=table-scan ranges=[(-inf .. +inf)] residual=(gt Qty 5:Int32)");
  CHECK(PlanDump("PartitionKey eq 'a' or Qty gt 5") ==
        "plan=table-scan service=table-scan ranges=[(-inf .. +inf)] residual=(or (eq "
        "PartitionKey 'a') (gt Qty 5:Int32))");
  // Only the exact names are keys (filters are case-sensitive).
  CHECK(PlanDump("partitionkey eq 'a'") ==
        "plan=table-scan service=table-scan ranges=[(-inf .. +inf)] residual=(eq partitionkey "
        "'a')");
  CHECK(PlanDump("RowKey ge 'm'") ==
        "plan=table-scan service=table-scan ranges=[(-inf .. +inf)] residual=(ge RowKey 'm')");
}

TEST_CASE("planner: a RowKey range across partitions keeps a residual", "[odata]") {
  CHECK(PlanDump("PartitionKey ne 'a' and RowKey eq '1'") ==
        "plan=ranges(2) service=table-scan ranges=[(-inf .. 'a'/*), ('a'/* .. +inf)] "
        "residual=(and (ne PartitionKey 'a') (eq RowKey '1'))");
}

TEST_CASE("planner: literals a key range cannot hold do not narrow", "[odata]") {
  // A NUL cannot be in a key (storage ends the PartitionKey with 00), so no bound is built on it.
  using namespace std::string_view_literals;
  CHECK(PlanDump("PartitionKey lt 'a\0b'"sv) ==
        "plan=table-scan service=partition-range ranges=[(-inf .. +inf)] residual=(lt "
        "PartitionKey 'a\\x00b')");
}

TEST_CASE("planner: dumps escape bytes outside printable ASCII", "[odata]") {
  CHECK(PlanDump("PartitionKey eq 'caf\xC3\xA9' and RowKey eq 'it''s'") ==
        "plan=point service=point ranges=['caf\\xC3\\xA9'/'it''s'] residual=none");
  CHECK(PlanDump("Name eq '\xC3\xA9'") ==
        "plan=table-scan service=table-scan ranges=[(-inf .. +inf)] residual=(eq Name "
        "'\\xC3\\xA9')");
}

TEST_CASE("planner: too many or-pieces collapse to a wider plan that is still a superset",
          "[odata]") {
  // (ne) and (ne) and ... multiplies pieces: 2^7 > kMaxBoxes.
  std::string text = "PartitionKey ne 'a'";
  for (char c = 'b'; c <= 'h'; ++c) text += std::string(" and RowKey ne '") + c + "'";
  const std::string dump = PlanDump(text);
  CHECK(dump.find("residual=(and") != std::string::npos);
}

TEST_CASE("planner: RangesFrom resumes at a continuation key", "[odata]") {
  auto filter = Filter::Parse("PartitionKey eq 'a' or PartitionKey eq 'c' or PartitionKey eq 'e'");
  REQUIRE(filter);
  const ScanPlan plan = ScanPlan::Make(&*filter);
  CHECK(DumpRanges(plan.RangesFrom("c", "5")) == "[['c'/'5' .. 'c'/*], 'e'/*]");
  CHECK(DumpRanges(plan.RangesFrom("c", std::nullopt)) == "['c'/*, 'e'/*]");
  CHECK(DumpRanges(plan.RangesFrom("d", "x")) == "['e'/*]");
  CHECK(DumpRanges(plan.RangesFrom("f", std::nullopt)) == "[]");
  CHECK(DumpRanges(ScanPlan::Make(nullptr).RangesFrom("b", "")) == "[['b'/'' .. +inf)]");
}

TEST_CASE("planner: Query Tables plans over TableName alone", "[odata]") {
  auto plan = [](std::string_view text) {
    auto filter = Filter::Parse(text);
    REQUIRE(filter);
    return ScanPlan::MakeForTables(&*filter).Dump();
  };
  CHECK(plan("TableName eq 'orders'") == "plan=partition ranges=['orders'/*] residual=none");
  CHECK(plan("TableName ge 'pre' and TableName lt 'prf'") ==
        "plan=partition-range ranges=[['pre'/* .. 'prf'/*)] residual=none");
  CHECK(plan("TableName eq 'a' or TableName eq 'b'") ==
        "plan=ranges(2) ranges=['a'/*, 'b'/*] residual=none");
  CHECK(plan("RowKey eq 'x'") ==
        "plan=table-scan ranges=[(-inf .. +inf)] residual=(eq RowKey 'x')");
  CHECK(ScanPlan::MakeForTables(nullptr).Dump() ==
        "plan=table-scan ranges=[(-inf .. +inf)] residual=none");
  CHECK(plan("false") == "plan=empty ranges=[] residual=none");
  CHECK(plan("true and TableName eq 'orders'") ==
        "plan=partition ranges=['orders'/*] residual=none");
}

// ---- Properties over random filters and entities ----

struct Key {
  std::string pk;
  std::string rk;
};

// Key material that exercises the orders: empty strings, prefixes, and characters whose UTF-16
// order differs from their code point order (U+E000 and U+FF01 sort after U+1F600).
const std::vector<std::string> kAlphabet = {"",
                                            "a",
                                            "ab",
                                            "b",
                                            "m",
                                            "z",
                                            "\xEE\x80\x80" /*U+E000*/,
                                            "\xF0\x9F\x98\x80" /*U+1F600*/,
                                            "\xEF\xBC\x81" /*U+FF01*/,
                                            "a\xF0\x9F\x98\x80",
                                            "~"};

bool KeyLess(const Key& a, const Key& b) {
  const int pk = CompareUtf16Order(a.pk, b.pk);
  return pk != 0 ? pk < 0 : CompareUtf16Order(a.rk, b.rk) < 0;
}

class FilterGen {
 public:
  explicit FilterGen(unsigned seed) : rng_(seed) {}

  std::string Literal() {
    switch (Pick(8)) {
      case 0:
        return std::to_string(Pick(3));
      case 1:
        return "true";
      default:
        return Quote(kAlphabet[Pick(kAlphabet.size())]);
    }
  }
  std::string Comparison() {
    if (Pick(10) == 0) return Pick(2) == 0 ? "true" : "false";  // a constant condition
    static constexpr const char* kProps[] = {"PartitionKey", "PartitionKey", "RowKey", "RowKey",
                                             "Tag"};
    static constexpr const char* kOps[] = {"eq", "ne", "gt", "ge", "lt", "le"};
    return std::string(kProps[Pick(5)]) + " " + kOps[Pick(6)] + " " + Literal();
  }
  std::string Expr(int depth, int* budget) {
    if (depth == 0 || *budget <= 1 || Pick(3) == 0) {
      --*budget;
      return Comparison();
    }
    switch (Pick(3)) {
      case 0:
        return "not (" + Expr(depth - 1, budget) + ")";
      case 1:
        return "(" + Expr(depth - 1, budget) + ") and (" + Expr(depth - 1, budget) + ")";
      default:
        return "(" + Expr(depth - 1, budget) + ") or (" + Expr(depth - 1, budget) + ")";
    }
  }
  std::size_t Pick(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
  }

 private:
  static std::string Quote(const std::string& s) { return "'" + s + "'"; }
  std::mt19937 rng_;
};

struct Row {
  Key key;
  TestRow row;
};

std::vector<Row> RandomRows(FilterGen& gen) {
  std::vector<Key> keys;
  for (int i = 0; i < 40; ++i) {
    keys.push_back({kAlphabet[gen.Pick(kAlphabet.size())], kAlphabet[gen.Pick(kAlphabet.size())]});
  }
  std::sort(keys.begin(), keys.end(), KeyLess);
  keys.erase(
      std::unique(keys.begin(), keys.end(),
                  [](const Key& a, const Key& b) { return !KeyLess(a, b) && !KeyLess(b, a); }),
      keys.end());
  std::vector<Row> rows;
  for (const Key& key : keys) {
    TestRow row;
    row.Set("PartitionKey", EdmValue::String(key.pk)).Set("RowKey", EdmValue::String(key.rk));
    if (gen.Pick(2) == 0) row.Set("Tag", EdmValue::String(kAlphabet[gen.Pick(kAlphabet.size())]));
    rows.push_back({key, std::move(row)});
  }
  return rows;
}

// Keys of the rows in ranges (each row in at most one range), passing the residual.
std::vector<std::string> Execute(const ScanPlan& plan, const std::vector<KeyRange>& ranges,
                                 const std::vector<Row>& rows) {
  std::vector<std::string> out;
  for (const Row& row : rows) {
    int containing = 0;
    for (const KeyRange& range : ranges) containing += RangeContains(range, row.key.pk, row.key.rk);
    REQUIRE(containing <= 1);
    if (containing == 1 && plan.Matches(row.row)) out.push_back(row.key.pk + "/" + row.key.rk);
  }
  return out;
}

TEST_CASE("planner: executing the plan equals a full scan, for random filters and entities",
          "[odata]") {
  FilterGen gen(20240506);
  int narrowed = 0;
  for (int iteration = 0; iteration < 3000; ++iteration) {
    const std::vector<Row> rows = RandomRows(gen);
    int budget = 15;
    const std::string text = gen.Expr(4, &budget);
    auto filter = Filter::Parse(text);
    REQUIRE(filter);
    const ScanPlan plan = ScanPlan::Make(&*filter);
    INFO(text << "\n" << plan.Dump());
    const auto& ranges = plan.ranges();
    for (std::size_t i = 0; i + 1 < ranges.size(); ++i) {
      // Disjoint and in order: the next range starts at or after this one ends.
      REQUIRE(KeyRange{ranges[i + 1].lower, ranges[i].upper}.IsEmpty());
    }
    std::vector<std::string> expected;
    for (const Row& row : rows) {
      if (filter->Matches(row.row)) expected.push_back(row.key.pk + "/" + row.key.rk);
    }
    REQUIRE(Execute(plan, ranges, rows) == expected);
    if (plan.kind() != PlanKind::kTableScan) ++narrowed;

    // Resuming at any row's key returns exactly the matches from that key on.
    const Row& resume = rows[gen.Pick(rows.size())];
    const bool partition_only = gen.Pick(2) == 0;
    std::vector<std::string> tail;
    for (const Row& row : rows) {
      const bool from = partition_only ? CompareUtf16Order(row.key.pk, resume.key.pk) >= 0
                                       : !KeyLess(row.key, resume.key);
      if (from && filter->Matches(row.row)) tail.push_back(row.key.pk + "/" + row.key.rk);
    }
    const auto clipped = plan.RangesFrom(
        resume.key.pk,
        partition_only ? std::nullopt : std::optional<std::string_view>(resume.key.rk));
    REQUIRE(Execute(plan, clipped, rows) == tail);
  }
  CHECK(narrowed > 1000);  // the generator does exercise the planner
}

}  // namespace
}  // namespace malachite::odata
