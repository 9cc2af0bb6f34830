#include "odata/filter.h"

#include <catch2/catch.hpp>

#include "tests/unit/odata/test_row.h"

namespace malachite::odata {
namespace {

using testing::TestRow;

Filter MustParse(std::string_view text) {
  Result<Filter> filter = Filter::Parse(text);
  INFO(text << " -> " << (filter ? std::string() : filter.error().message));
  REQUIRE(filter.has_value());
  return *filter;
}

TEST_CASE("filter: Query Tables filters on TableName select by exact name and by prefix range",
          "[odata]") {
  const TestRow alpha{{"TableName", EdmValue::String("prefix1")}};
  const TestRow beta{{"TableName", EdmValue::String("prf")}};
  const TestRow gamma{{"TableName", EdmValue::String("pre")}};

  const Filter exact = MustParse("TableName eq 'prefix1'");
  CHECK(exact.Matches(alpha));
  CHECK_FALSE(exact.Matches(beta));

  const Filter range = MustParse("TableName ge 'pre' and TableName lt 'prf'");
  CHECK(range.Dump() == "(and (ge TableName 'pre') (lt TableName 'prf'))");
  CHECK(range.Matches(alpha));
  CHECK(range.Matches(gamma));
  CHECK_FALSE(range.Matches(beta));
}

TEST_CASE("filter: Parse reports a syntax error as InvalidInput naming the byte offset",
          "[odata]") {
  Result<Filter> filter = Filter::Parse("TableName eq");
  REQUIRE_FALSE(filter.has_value());
  CHECK(filter.error().code == ErrorCode::kInvalidInput);
  CHECK(filter.error().message ==
        "Invalid $filter at position 12: expected a property name or a literal, found the end");
}

}  // namespace
}  // namespace malachite::odata
