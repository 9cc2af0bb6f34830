// libFuzzer target for $filter (spec §6): untrusted text through Filter::Parse (lexer, parser,
// checker), then the planner over entity keys and over table names, then evaluation on fixed rows.
// Invariants beyond "no crash": a refused filter is the service's 400 InvalidInput or 501
// NotImplemented; a plan's ranges are disjoint and in key order (normalising changes nothing);
// its dump is printable ASCII (it goes into a response header); and executing the plan — the
// ranges, then the residual, also after resuming from a continuation at a matching row — selects
// exactly the rows Filter::Matches accepts.
//
// With clang: scripts/fuzz filter (or cmake -DMALACHITE_FUZZ=ON and run build/.../filter_fuzz).
// In the GCC build, filter_fuzz_driver_test.cc runs this entry point on mutations of the seeds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "common/encoding.h"
#include "odata/filter.h"
#include "odata/planner.h"
#include "tests/unit/odata/test_row.h"

namespace {

using malachite::DateTime;
using malachite::EdmValue;
using malachite::ErrorCode;
using malachite::KeyRange;
using malachite::NormalizeRanges;
using namespace malachite::odata;
using malachite::odata::testing::TestRow;

struct Row {
  std::string first;   // PartitionKey, or TableName
  std::string second;  // RowKey ("" for tables)
  TestRow properties;
};

EdmValue GuidValue(std::string_view text) { return EdmValue::Guid(*malachite::ParseGuid(text)); }

// Rows on the key edges the planner cares about (empty keys, shared prefixes, non-ASCII, a quote),
// with every EDM type and a property `V` whose type differs from row to row.
std::vector<Row> MakeEntityRows() {
  const std::vector<std::pair<std::string, std::string>> keys = {
      {"p", "r"},    {"a", "a1"},  {"b", ""},
      {"", ""},      {"bb", "b2"}, {"\xc3\xa9", "\xf0\x9f\x98\x80"},
      {"it's", "x"}, {"b", "b1"}};
  const std::vector<EdmValue> v_values = {
      EdmValue::Int32(5),       EdmValue::Int64(5),
      EdmValue::Double(5.0),    EdmValue::String("5"),
      EdmValue::Boolean(true),  EdmValue::Time(DateTime{638396640000000000}),
      EdmValue::Binary("\x05"), GuidValue("00000000-0000-0000-0000-000000000005")};
  std::vector<Row> rows;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto n = static_cast<std::int32_t>(i);
    Row row{keys[i].first, keys[i].second, {}};
    row.properties.Set("PartitionKey", EdmValue::String(keys[i].first))
        .Set("RowKey", EdmValue::String(keys[i].second))
        .Set("Timestamp", EdmValue::Time(DateTime{638396640000000000 + n}))
        .Set("V", v_values[i % v_values.size()]);
    if (i % 3 != 2) {  // some rows lack the typed properties: missing-property semantics
      row.properties.Set("Qty", EdmValue::Int32(n * 3 - 7))
          .Set("Big", EdmValue::Int64(n % 2 ? INT64_MAX - n : INT64_MIN + n))
          .Set("Ratio",
               EdmValue::Double(i == 4 ? std::numeric_limits<double>::quiet_NaN() : n * -1.25E-3))
          .Set("On", EdmValue::Boolean(n % 2 == 0))
          .Set("When", EdmValue::Time(DateTime{n * 1000000007LL}))
          .Set("Id", GuidValue("a455c695-df98-5678-aaaa-81d3367e5a3" + std::to_string(n)))
          .Set("Blob", EdmValue::Binary(std::string(static_cast<std::size_t>(n), '\xff')))
          .Set("Name", EdmValue::String(n % 2 ? "O'Brien" : "ab"))
          .Set("S", EdmValue::String(keys[i].second));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<Row> MakeTableRows() {
  std::vector<Row> rows;
  for (const char* name : {"pre", "prefix1", "prefix2", "prf", "Pre3", "other", "a1b", "zz9"}) {
    Row row{name, "", {}};
    row.properties.Set("TableName", EdmValue::String(name));
    rows.push_back(std::move(row));
  }
  return rows;
}

bool InRanges(const std::vector<KeyRange>& ranges, const Row& row) {
  for (const KeyRange& range : ranges) {
    if (RangeContains(range, row.first, row.second)) return true;
  }
  return false;
}

bool PrintableAscii(std::string_view text) {
  for (char c : text) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

void CheckPlan(const ScanPlan& plan, const Filter& filter, const std::vector<Row>& rows,
               bool tables) {
  if (!PrintableAscii(plan.Dump())) std::abort();
  if (DumpRanges(NormalizeRanges(plan.ranges())) != DumpRanges(plan.ranges())) std::abort();
  if (plan.kind() == PlanKind::kEmpty && !plan.ranges().empty()) std::abort();
  for (const Row& row : rows) {
    const bool matches = filter.Matches(row.properties);
    const bool selected = InRanges(plan.ranges(), row) && plan.Matches(row.properties);
    if (matches != selected) std::abort();
    if (!matches || tables) continue;
    // A continuation that resumes at this row (or at its partition) must still reach it.
    if (!InRanges(plan.RangesFrom(row.first, row.second), row)) std::abort();
    if (!InRanges(plan.RangesFrom(row.first, std::nullopt), row)) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<Row> entity_rows = MakeEntityRows();
  static const std::vector<Row> table_rows = MakeTableRows();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  malachite::Result<Filter> filter = Filter::Parse(text);
  if (!filter) {
    const ErrorCode code = filter.error().code;
    if (code != ErrorCode::kInvalidInput && code != ErrorCode::kNotImplemented) std::abort();
    return 0;
  }
  if (filter->Dump().empty()) std::abort();
  CheckPlan(ScanPlan::Make(&*filter), *filter, entity_rows, false);
  CheckPlan(ScanPlan::MakeForTables(&*filter), *filter, table_rows, true);
  return 0;
}
