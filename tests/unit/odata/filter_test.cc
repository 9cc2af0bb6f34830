#include "odata/filter.h"

#include <array>
#include <catch2/catch.hpp>
#include <random>

#include "tests/unit/odata/test_row.h"

namespace malachite::odata {
namespace {

using testing::TestRow;

Filter MustParse(std::string_view text) {
  Result<Filter> filter = Filter::Parse(text);
  INFO(text << " -> " << (filter ? std::string() : filter.error().message));
  REQUIRE(filter.has_value());
  return std::move(*filter);
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

TEST_CASE("filter: random token soup never crashes and fails only with filter error codes",
          "[odata]") {
  static constexpr std::array<std::string_view, 24> kPieces = {"(",
                                                               ")",
                                                               "not ",
                                                               "PartitionKey",
                                                               " eq ",
                                                               " ne ",
                                                               " lt ",
                                                               " and ",
                                                               " or ",
                                                               "'a'",
                                                               "''",
                                                               "5",
                                                               "-",
                                                               "1.5",
                                                               "2E",
                                                               "60L",
                                                               "true",
                                                               "null",
                                                               "datetime'2024-01-01T00:00:00Z'",
                                                               "guid'",
                                                               "X'0A'",
                                                               "'",
                                                               ",",
                                                               "f("};
  std::mt19937 rng(42);  // fixed seed: a failure reproduces
  const TestRow row{{"PartitionKey", EdmValue::String("a")}};
  std::size_t parsed = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    const int pieces = static_cast<int>(rng() % 12) + 1;
    for (int p = 0; p < pieces; ++p) text += kPieces[rng() % kPieces.size()];
    if (rng() % 4 == 0) text[rng() % text.size()] = static_cast<char>(rng() % 256);
    Result<Filter> filter = Filter::Parse(text);
    if (filter) {
      ++parsed;
      (void)filter->Matches(row);
      CHECK_FALSE(filter->Dump().empty());
    } else {
      INFO(text);
      CHECK((filter.error().code == ErrorCode::kInvalidInput ||
             filter.error().code == ErrorCode::kNotImplemented));
    }
  }
  CHECK(parsed > 0);
}

}  // namespace
}  // namespace malachite::odata
