// Runs the shared $filter cases of tests/cases/filter (format: its README.md) in-process.
#include <simdjson.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "common/datetime.h"
#include "common/encoding.h"
#include "odata/filter.h"
#include "odata/planner.h"
#include "tests/unit/odata/test_row.h"

namespace malachite::odata {
namespace {

using testing::TestRow;
namespace dom = simdjson::dom;

// The value of one JSON property with its optional annotation, typed as the README says (the
// Insert Entity rules of spec §5.2). Returns nullopt for a value the format does not allow.
std::optional<EdmValue> ToEdmValue(dom::element value, std::string_view annotation) {
  const dom::element_type t = value.type();
  if (annotation.empty()) {
    if (t == dom::element_type::STRING)
      return EdmValue::String(std::string(value.get_string().value()));
    if (t == dom::element_type::BOOL) return EdmValue::Boolean(value.get_bool().value());
    if (t == dom::element_type::INT64) {
      const std::int64_t v = value.get_int64().value();
      if (v >= INT32_MIN && v <= INT32_MAX) return EdmValue::Int32(static_cast<std::int32_t>(v));
      return EdmValue::Double(static_cast<double>(v));
    }
    if (t == dom::element_type::DOUBLE || t == dom::element_type::UINT64) {
      return EdmValue::Double(value.get_double().value());
    }
    return std::nullopt;
  }
  const std::optional<EdmType> type = ParseEdmTypeName(annotation);
  if (!type) return std::nullopt;
  const bool is_string = t == dom::element_type::STRING;
  const std::string_view text = is_string ? value.get_string().value() : "";
  switch (*type) {
    case EdmType::kString:
      return is_string ? std::optional(EdmValue::String(std::string(text))) : std::nullopt;
    case EdmType::kBoolean:
      return EdmValue::Boolean(value.get_bool().value());
    case EdmType::kInt32:
      return EdmValue::Int32(static_cast<std::int32_t>(value.get_int64().value()));
    case EdmType::kInt64:
      return EdmValue::Int64(std::stoll(std::string(text)));
    case EdmType::kDouble:
      if (text == "NaN") return EdmValue::Double(std::numeric_limits<double>::quiet_NaN());
      if (text == "Infinity") return EdmValue::Double(std::numeric_limits<double>::infinity());
      if (text == "-Infinity") return EdmValue::Double(-std::numeric_limits<double>::infinity());
      return EdmValue::Double(value.get_double().value());
    case EdmType::kDateTime: {
      const std::optional<DateTime> v = ParseIso8601(text);
      return v ? std::optional(EdmValue::Time(*v)) : std::nullopt;
    }
    case EdmType::kGuid: {
      const auto v = ParseGuid(text);
      return v ? std::optional(EdmValue::Guid(*v)) : std::nullopt;
    }
    case EdmType::kBinary: {
      std::optional<std::string> v = Base64Decode(text);
      return v ? std::optional(EdmValue::Binary(std::move(*v))) : std::nullopt;
    }
  }
  return std::nullopt;
}

struct Row {
  std::string key;
  TestRow properties;
};

std::vector<Row> ReadEntities(dom::array entities, std::string_view key_name) {
  std::vector<Row> rows;
  for (dom::object entity : entities) {
    Row row;
    for (dom::key_value_pair field : entity) {
      if (field.key.find('@') != std::string_view::npos) continue;
      std::string annotation_key = std::string(field.key) + "@odata.type";
      std::string_view annotation;
      if (entity[annotation_key].error() == simdjson::SUCCESS) {
        annotation = entity[annotation_key].get_string().value();
      }
      const std::optional<EdmValue> value = ToEdmValue(field.value, annotation);
      INFO("property " << field.key);
      REQUIRE(value.has_value());
      if (field.key == key_name) row.key = value->bytes;
      row.properties.Set(std::string(field.key), *value);
    }
    REQUIRE_FALSE(row.key.empty());
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string Joined(std::vector<std::string> keys) {
  std::sort(keys.begin(), keys.end());
  std::string out;
  for (const std::string& key : keys) out += (out.empty() ? "" : ",") + key;
  return "[" + out + "]";
}

// True when the plan scans `row` (one of its ranges holds the row's keys) and its residual passes.
bool PlanSelects(const ScanPlan& plan, const Row& row, bool tables) {
  auto text = [&](std::string_view name) {
    const std::optional<PropertyView> value = row.properties.Get(name);
    return value && value->type == EdmType::kString ? value->bytes : std::string_view();
  };
  const std::string_view first = text(tables ? "TableName" : "PartitionKey");
  const std::string_view second = tables ? std::string_view() : text("RowKey");
  bool in_range = false;
  for (const KeyRange& range : plan.ranges())
    in_range = in_range || RangeContains(range, first, second);
  return in_range && plan.Matches(row.properties);
}

// "[a,b]" (sorted matching keys) or "error <AzureCode>", for the expectation and the outcome.
// Also checks that executing the scan plan (ranges, then residual) selects the same rows.
std::string Outcome(std::string_view filter_text, const std::vector<Row>& rows, bool tables) {
  Result<Filter> filter = Filter::Parse(filter_text);
  if (!filter) return "error " + std::string(filter.error().AzureCode());
  const ScanPlan plan = tables ? ScanPlan::MakeForTables(&*filter) : ScanPlan::Make(&*filter);
  std::vector<std::string> keys, planned;
  for (const Row& row : rows) {
    if (filter->Matches(row.properties)) keys.push_back(row.key);
    if (PlanSelects(plan, row, tables)) planned.push_back(row.key);
  }
  INFO(plan.Dump());
  CHECK(planned == keys);
  return Joined(std::move(keys));
}

std::string Expected(dom::object test_case) {
  std::string_view error;
  if (test_case["error"].get(error) == simdjson::SUCCESS) return "error " + std::string(error);
  std::vector<std::string> keys;
  const dom::array expect = test_case["expect"].get_array().value();
  for (dom::element key : expect) {
    keys.emplace_back(key.get_string().value());
  }
  return Joined(std::move(keys));
}

std::size_t RunCaseFile(const std::filesystem::path& path) {
  dom::parser parser;
  dom::object file = parser.load(path.string()).get_object().value();
  std::string_view key_name = "RowKey";
  if (file["key"].error() == simdjson::SUCCESS) key_name = file["key"].get_string().value();
  const std::vector<Row> rows = ReadEntities(file["entities"].get_array().value(), key_name);
  std::size_t count = 0;
  // Arrays are bound to locals: ranging over `....value()` would view a dead temporary.
  const dom::array cases = file["cases"].get_array().value();
  for (dom::object test_case : cases) {
    const std::string_view filter_text = test_case["filter"].get_string().value();
    const bool has_expect = test_case["expect"].error() == simdjson::SUCCESS;
    const bool has_error = test_case["error"].error() == simdjson::SUCCESS;
    INFO(path.filename().string() << ": " << filter_text);
    REQUIRE(has_expect != has_error);
    CHECK(Outcome(filter_text, rows, key_name == "TableName") == Expected(test_case));
    ++count;
  }
  return count;
}

TEST_CASE("cases: every shared filter case in tests/cases/filter holds in-process",
          "[odata][cases]") {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(MALACHITE_FILTER_CASES_DIR)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 9);
  std::size_t cases = 0;
  for (const auto& path : files) cases += RunCaseFile(path);
  CHECK(cases >= 100);
}

}  // namespace
}  // namespace malachite::odata
