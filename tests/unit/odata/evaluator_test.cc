#include "odata/evaluator.h"

#include <catch2/catch.hpp>
#include <limits>

#include "common/datetime.h"
#include "common/encoding.h"
#include "tests/unit/odata/test_row.h"

namespace malachite::odata {
namespace {

using testing::TestRow;

// Evaluates `P <op> <literal>` for the six operators against a row whose P is `value` (or a row
// without P when `value` is nullopt). One letter per operator in the order eq ne gt ge lt le:
// T = match, F = no match.
std::string TruthRow(std::optional<EdmValue> value, std::string_view literal) {
  TestRow row{{"Other", EdmValue::Int32(1)}};
  if (value) row.Set("P", *value);
  std::string out;
  for (const char* op : {"eq", "ne", "gt", "ge", "lt", "le"}) {
    const std::string text = "P " + std::string(op) + " " + std::string(literal);
    Result<Filter> filter = Filter::Parse(text);
    if (!filter) return "error: " + filter.error().message;
    out += filter->Matches(row) ? 'T' : 'F';
  }
  return out;
}

EdmValue Time(std::string_view iso) { return EdmValue::Time(*ParseIso8601(iso)); }

TEST_CASE("evaluator: same-type comparisons order numerically", "[odata][evaluator]") {
  CHECK(TruthRow(EdmValue::Int32(5), "5") == "TFFTFT");
  CHECK(TruthRow(EdmValue::Int32(5), "6") == "FTFFTT");
  CHECK(TruthRow(EdmValue::Int32(5), "-4") == "FTTTFF");
  CHECK(TruthRow(EdmValue::Int64(5'000'000'000), "5000000000L") == "TFFTFT");
  CHECK(TruthRow(EdmValue::Int64(-1), "0L") == "FTFFTT");
  CHECK(TruthRow(EdmValue::Double(1.25), "1.25") == "TFFTFT");
  CHECK(TruthRow(EdmValue::Double(1.25), "1.5") == "FTFFTT");
  CHECK(TruthRow(EdmValue::Double(5), "5.0") == "TFFTFT");
  CHECK(TruthRow(EdmValue::Boolean(true), "false") == "FTTTFF");
  CHECK(TruthRow(EdmValue::Boolean(false), "false") == "TFFTFT");
}

TEST_CASE("evaluator: a NaN Double property matches only ne", "[odata][evaluator]") {
  CHECK(TruthRow(EdmValue::Double(std::numeric_limits<double>::quiet_NaN()), "1.0") == "FTFFFF");
}

TEST_CASE("evaluator: no promotion between Int32, Int64 and Double", "[odata][evaluator]") {
  // Azure: spec §6.2 — different types: eq false, ne true, ordering false.
  CHECK(TruthRow(EdmValue::Int32(5), "5L") == "FTFFFF");
  CHECK(TruthRow(EdmValue::Int64(5), "5") == "FTFFFF");
  CHECK(TruthRow(EdmValue::Double(5), "5") == "FTFFFF");
  CHECK(TruthRow(EdmValue::Int32(5), "5.0") == "FTFFFF");
  CHECK(TruthRow(EdmValue::Boolean(true), "1") == "FTFFFF");
  CHECK(TruthRow(EdmValue::String("true"), "true") == "FTTTFF");
}

TEST_CASE("evaluator: across types String ranks above everything (unverified rec.)",
          "[odata][evaluator]") {
  CHECK(TruthRow(EdmValue::Double(1.5), "''") == "FTFFTT");
  CHECK(TruthRow(Time("2024-01-01T00:00:00Z"), "''") == "FTFFTT");
  CHECK(TruthRow(EdmValue::String("abc"), "5") == "FTTTFF");
  CHECK(TruthRow(EdmValue::String("5"), "5") == "FTTTFF");
}

TEST_CASE("evaluator: a missing property fails every operator, ne included", "[odata][evaluator]") {
  CHECK(TruthRow(std::nullopt, "'a'") == "FFFFFF");
  CHECK(TruthRow(std::nullopt, "5") == "FFFFFF");
  const TestRow row{{"Other", EdmValue::Int32(1)}};
  CHECK(Filter::Parse("not (P eq 'a')")->Matches(row));
  CHECK(Filter::Parse("not (P ne 'a')")->Matches(row));
  CHECK_FALSE(Filter::Parse("not (Other eq 1)")->Matches(row));
}

TEST_CASE("evaluator: DateTime compares at full 100 ns precision", "[odata][evaluator]") {
  const EdmValue t = Time("2024-01-01T00:00:00.0000001Z");
  CHECK(TruthRow(t, "datetime'2024-01-01T00:00:00Z'") == "FTTTFF");
  CHECK(TruthRow(t, "datetime'2024-01-01T00:00:00.0000001Z'") == "TFFTFT");
  CHECK(TruthRow(t, "datetime'2024-01-01T00:00:00.0000002Z'") == "FTFFTT");
  CHECK(TruthRow(t, "datetime'2024-01-01T01:00:00.0000001+01:00'") == "TFFTFT");
}

TEST_CASE("evaluator: strings compare ordinally and case-sensitively", "[odata][evaluator]") {
  CHECK(TruthRow(EdmValue::String("abc"), "'abc'") == "TFFTFT");
  CHECK(TruthRow(EdmValue::String("abc"), "'abd'") == "FTFFTT");
  CHECK(TruthRow(EdmValue::String("abc"), "'ab'") == "FTTTFF");
  CHECK(TruthRow(EdmValue::String("abc"), "'ABC'") == "FTTTFF");
  CHECK(TruthRow(EdmValue::String(""), "''") == "TFFTFT");
  CHECK(TruthRow(EdmValue::String("O'Brien"), "'O''Brien'") == "TFFTFT");
}

TEST_CASE("evaluator: strings order by UTF-16 code units, not UTF-8 bytes", "[odata][evaluator]") {
  const std::string fullwidth_a = "\xEF\xBC\xA1";   // U+FF21, one unit FF21
  const std::string grinning = "\xF0\x9F\x98\x80";  // U+1F600, units D83D DE00
  const std::string e_acute = "\xC3\xA9";           // U+00E9
  CHECK(CompareUtf16Order(fullwidth_a, grinning) > 0);
  CHECK(CompareUtf16Order(grinning, fullwidth_a) < 0);
  CHECK(CompareUtf16Order("\xEE\x80\x80", grinning) > 0);  // U+E000
  CHECK(CompareUtf16Order("\xED\x9F\xBF", grinning) < 0);  // U+D7FF
  CHECK(CompareUtf16Order(e_acute, fullwidth_a) < 0);
  CHECK(CompareUtf16Order("a" + grinning, "a" + grinning + "b") < 0);
  CHECK(CompareUtf16Order("\xF0\x9F\x98\x81", grinning) > 0);  // U+1F601
  CHECK(CompareUtf16Order("x", "x") == 0);
  CHECK(TruthRow(EdmValue::String(fullwidth_a), "'" + grinning + "'") == "FTTTFF");
}

TEST_CASE("evaluator: Guid and Binary compare exactly, ordered by bytes", "[odata][evaluator]") {
  const EdmValue id = EdmValue::Guid(*ParseGuid("a455c695-df98-5678-aaaa-81d3367e5a34"));
  CHECK(TruthRow(id, "guid'A455C695-DF98-5678-AAAA-81D3367E5A34'") == "TFFTFT");
  CHECK(TruthRow(id, "guid'b455c695-df98-5678-aaaa-81d3367e5a34'") == "FTFFTT");
  CHECK(TruthRow(id, "'a455c695-df98-5678-aaaa-81d3367e5a34'") == "FTFFTT");
  const EdmValue blob = EdmValue::Binary(std::string("\x01\xFF", 2));
  CHECK(TruthRow(blob, "X'01FF'") == "TFFTFT");
  CHECK(TruthRow(blob, "X'01'") == "FTTTFF");
  CHECK(TruthRow(blob, "X'0200'") == "FTFFTT");
  CHECK(TruthRow(blob, "X'017F'") == "FTTTFF");
}

TEST_CASE("evaluator: and/or/not combine with short-circuit truth tables", "[odata][evaluator]") {
  const TestRow row{{"T", EdmValue::Boolean(true)}, {"F", EdmValue::Boolean(false)}};
  auto eval = [&](std::string_view text) { return Filter::Parse(text)->Matches(row); };
  CHECK(eval("T eq true and T eq true"));
  CHECK_FALSE(eval("T eq true and F eq true"));
  CHECK_FALSE(eval("F eq true and T eq true"));
  CHECK(eval("F eq true or T eq true"));
  CHECK_FALSE(eval("F eq true or F eq true"));
  CHECK(eval("not F eq true"));
  CHECK(eval("F eq true and T eq true or T eq true"));
  CHECK_FALSE(eval("F eq true and (T eq true or T eq true)"));
}

TEST_CASE("evaluator: a boolean constant holds for every row or for none", "[odata][evaluator]") {
  const TestRow row{{"T", EdmValue::Boolean(true)}};
  const TestRow empty{};
  auto eval = [](std::string_view text, const TestRow& r) {
    return Filter::Parse(text)->Matches(r);
  };
  CHECK(eval("true", row));
  CHECK(eval("true", empty));
  CHECK_FALSE(eval("false", row));
  CHECK_FALSE(eval("false", empty));
  CHECK(eval("not false", empty));
  CHECK(eval("true and T eq true", row));
  CHECK_FALSE(eval("true and T eq true", empty));
  CHECK(eval("false or T eq true", row));
  CHECK_FALSE(eval("T eq true and false", row));
}

}  // namespace
}  // namespace malachite::odata
