#include "odata/checker.h"

#include <catch2/catch.hpp>

#include "odata/parser.h"

namespace malachite::odata {
namespace {

std::string CheckDump(std::string_view text) {
  Result<ExprTree> expr = ParseExpr(text);
  if (expr) expr = Check(std::move(*expr), text);
  if (!expr) return "error: " + expr.error().message;
  return (*expr)->Dump();
}

TEST_CASE("checker: literals print from their decoded values", "[odata][checker]") {
  CHECK(CheckDump("Qty eq -007") == "(eq Qty -7:Int32)");
  CHECK(CheckDump("Qty eq 2147483647 or Qty eq -2147483648") ==
        "(or (eq Qty 2147483647:Int32) (eq Qty -2147483648:Int32))");
  CHECK(CheckDump("Big eq 9223372036854775807L") == "(eq Big 9223372036854775807:Int64)");
  CHECK(CheckDump("Big eq -9223372036854775808L") == "(eq Big -9223372036854775808:Int64)");
  CHECK(CheckDump("P eq 1.50 or P eq 2E3 or P eq 7d or P eq 1e-400") ==
        "(or (or (or (eq P 1.5:Double) (eq P 2000:Double)) (eq P 7:Double)) (eq P 0:Double))");
  CHECK(CheckDump("T eq datetime'2024-01-02T03:04:05.1234567Z'") ==
        "(eq T datetime'2024-01-02T03:04:05.1234567Z')");
  CHECK(CheckDump("T eq datetime'2024-01-02T03:04:05.000Z'") ==
        "(eq T datetime'2024-01-02T03:04:05Z')");
  CHECK(CheckDump("Id eq guid'A455C695-DF98-5678-AAAA-81D3367E5A34'") ==
        "(eq Id guid'a455c695-df98-5678-aaaa-81d3367e5a34')");
  CHECK(CheckDump("B eq X'0a0B' or B eq X''") == "(or (eq B X'0A0B') (eq B X''))");
  CHECK(CheckDump("F eq false") == "(eq F false)");
}

TEST_CASE("checker: an integer outside Int32 without L is refused in ODataLib's words",
          "[odata][checker]") {
  Result<ExprTree> expr = ParseExpr("Timestamp ge 1498179600055");
  REQUIRE(expr.has_value());
  Result<ExprTree> checked = Check(std::move(*expr), "Timestamp ge 1498179600055");
  REQUIRE_FALSE(checked.has_value());
  CHECK(checked.error().code == ErrorCode::kInvalidInput);
  CHECK(checked.error().message ==
        "Unrecognized 'Edm.Int32' literal '1498179600055' at '13' in 'Timestamp ge "
        "1498179600055'.");
  CHECK(CheckDump("Qty eq 2147483648") ==
        "error: Unrecognized 'Edm.Int32' literal '2147483648' at '7' in 'Qty eq 2147483648'.");
  CHECK(CheckDump("Qty eq -2147483649").rfind("error: Unrecognized 'Edm.Int32'", 0) == 0);
  CHECK(CheckDump("Qty eq 99999999999999999999999").rfind("error: Unrecognized 'Edm.Int32'", 0) ==
        0);
  CHECK(CheckDump("Qty eq 9223372036854775808L") ==
        "error: Unrecognized 'Edm.Int64' literal '9223372036854775808L' at '7' in 'Qty eq "
        "9223372036854775808L'.");
  CHECK(CheckDump("P eq 1e309") ==
        "error: Unrecognized 'Edm.Double' literal '1e309' at '5' in 'P eq 1e309'.");
}

TEST_CASE("checker: malformed datetime, guid and binary literals are InvalidInput",
          "[odata][checker]") {
  CHECK(CheckDump("T eq datetime'2024-13-01T00:00:00Z'") ==
        "error: Unrecognized 'Edm.DateTime' literal 'datetime'2024-13-01T00:00:00Z'' at '5' in "
        "'T eq datetime'2024-13-01T00:00:00Z''.");
  CHECK(CheckDump("T eq datetime'yesterday'").rfind("error: Unrecognized 'Edm.DateTime'", 0) == 0);
  CHECK(CheckDump("T eq datetime'2024-01-01T00:00:00.12345678Z'")
            .rfind("error: Unrecognized 'Edm.DateTime'", 0) == 0);
  CHECK(CheckDump("G eq guid'1234'")
            .rfind("error: Unrecognized 'Edm.Guid' literal 'guid'1234''", 0) == 0);
  CHECK(CheckDump("B eq X'ABC'").rfind("error: Unrecognized 'Edm.Binary' literal 'X'ABC''", 0) ==
        0);
  CHECK(CheckDump("B eq X'GG'").rfind("error: Unrecognized 'Edm.Binary'", 0) == 0);
}

TEST_CASE("checker: at most 15 comparisons per filter", "[odata][checker]") {
  std::string filter = "a eq 1";
  for (int i = 1; i < 15; ++i) filter += " or a eq 1";
  CHECK(CheckDump(filter).rfind("(or ", 0) == 0);
  const std::size_t sixteenth = filter.size() + 4;
  CHECK(CheckDump(filter + " or a eq 1") == "error: Invalid $filter at position " +
                                                std::to_string(sixteenth) +
                                                ": more than 15 comparisons in one filter");
  // Boolean constants are no comparisons: 15 comparisons and a constant pass.
  CHECK(CheckDump("false or " + filter).rfind("(or ", 0) == 0);
  CHECK(CheckDump("true and " + filter + " or a eq 1").rfind("error: ", 0) == 0);
}

}  // namespace
}  // namespace malachite::odata
