#include "odata/lexer.h"

#include <catch2/catch.hpp>

namespace malachite::odata {
namespace {

std::string LexDump(std::string_view text) {
  Result<std::vector<Token>> tokens = Lex(text);
  if (!tokens) return "error: " + tokens.error().message;
  return DumpTokens(*tokens);
}

TEST_CASE("lexer: every token kind with its byte offset", "[odata][lexer]") {
  CHECK(LexDump("PartitionKey eq 'a' and (Qty ge -5 or not Big lt 60L)") ==
        "0 Identifier PartitionKey\n13 eq\n16 String 'a'\n20 and\n24 (\n25 Identifier Qty\n"
        "29 ge\n32 Integer -5\n35 or\n38 not\n42 Identifier Big\n46 lt\n49 Int64 60\n52 )\n"
        "53 End\n");
  CHECK(LexDump("a ne 1.5 gt 2E10 le -1.25e-3 lt 7d ge 8D") ==
        "0 Identifier a\n2 ne\n5 Double 1.5\n9 gt\n12 Double 2E10\n17 le\n20 Double -1.25e-3\n"
        "29 lt\n32 Double 7\n35 ge\n38 Double 8\n40 End\n");
  CHECK(LexDump("true false null") == "0 true\n5 false\n11 null\n15 End\n");
}

TEST_CASE("lexer: typed literals keep the body between their quotes", "[odata][lexer]") {
  CHECK(LexDump("datetime'2024-01-01T00:00:00Z' guid'a455c695-df98-5678-aaaa-81d3367e5a34'") ==
        "0 DateTime 2024-01-01T00:00:00Z\n31 Guid a455c695-df98-5678-aaaa-81d3367e5a34\n"
        "73 End\n");
  CHECK(LexDump("X'0A0b' binary'FF'") == "0 Binary 0A0b\n8 Binary FF\n18 End\n");
}

TEST_CASE("lexer: a doubled quote inside a string is one quote", "[odata][lexer]") {
  CHECK(LexDump("Name eq 'O''Brien'") == "0 Identifier Name\n5 eq\n8 String 'O'Brien'\n18 End\n");
  CHECK(LexDump("''''") == "0 String '''\n4 End\n");
  CHECK(LexDump("''") == "0 String ''\n2 End\n");
}

TEST_CASE("lexer: keywords and literal prefixes are case-sensitive", "[odata][lexer]") {
  CHECK(LexDump("EQ And TRUE") == "0 Identifier EQ\n3 Identifier And\n7 Identifier TRUE\n11 End\n");
  // `x` is no binary prefix, so x'0A' is a name followed by a string.
  CHECK(LexDump("x'0A'") == "0 Identifier x\n1 String '0A'\n5 End\n");
}

TEST_CASE("lexer: no whitespace is needed around parentheses and quotes", "[odata][lexer]") {
  CHECK(LexDump("(a eq'x')and(b eq 1)") ==
        "0 (\n1 Identifier a\n3 eq\n5 String 'x'\n8 )\n9 and\n12 (\n13 Identifier b\n15 eq\n"
        "18 Integer 1\n19 )\n20 End\n");
  CHECK(LexDump("  \t") == "3 End\n");
}

TEST_CASE("lexer: malformed input fails with the offset of the bad token", "[odata][lexer]") {
  CHECK(LexDump("a eq 'abc") ==
        "error: Invalid $filter at position 5: unterminated string literal");
  CHECK(LexDump("a eq datetime'2024") ==
        "error: Invalid $filter at position 13: unterminated literal");
  CHECK(LexDump("a eq 1.") ==
        "error: Invalid $filter at position 5: malformed number: digits expected after '.'");
  CHECK(LexDump("a eq 1e+") ==
        "error: Invalid $filter at position 5: malformed number: exponent expected");
  CHECK(LexDump("a eq 12abc") == "error: Invalid $filter at position 5: malformed number '12a'");
  CHECK(LexDump("a eq 1.5L") == "error: Invalid $filter at position 5: malformed number '1.5L'");
  CHECK(LexDump("a eq 5m") == "error: Invalid $filter at position 5: malformed number '5m'");
  CHECK(LexDump("a = 1") == "error: Invalid $filter at position 2: unexpected character '='");
  CHECK(LexDump("a eq - 1") == "error: Invalid $filter at position 5: unexpected character '-'");
  CHECK(LexDump("a eq .5") == "error: Invalid $filter at position 5: unexpected character '.'");
}

}  // namespace
}  // namespace malachite::odata
