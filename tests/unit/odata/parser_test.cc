#include "odata/parser.h"

#include <catch2/catch.hpp>

namespace malachite::odata {
namespace {

std::string ParseDump(std::string_view text) {
  Result<ExprTree> expr = ParseExpr(text);
  if (!expr) return "error: " + expr.error().message;
  return (*expr)->Dump();
}

TEST_CASE("parser: comparisons print with typed literals before checking", "[odata][parser]") {
  CHECK(ParseDump("PartitionKey eq 'a'") == "(eq PartitionKey 'a')");
  CHECK(ParseDump("Qty gt 5") == "(gt Qty 5:Int32)");
  CHECK(ParseDump("Big le -60L") == "(le Big -60:Int64)");
  CHECK(ParseDump("Price ge 1.5E3") == "(ge Price 1.5E3:Double)");
  CHECK(ParseDump("On ne true") == "(ne On true)");
  CHECK(ParseDump("When lt datetime'2024-01-01T00:00:00Z'") ==
        "(lt When datetime'2024-01-01T00:00:00Z')");
  CHECK(ParseDump("Id eq guid'A455C695-DF98-5678-AAAA-81D3367E5A34'") ==
        "(eq Id guid'A455C695-DF98-5678-AAAA-81D3367E5A34')");
  CHECK(ParseDump("Blob eq binary'0a'") == "(eq Blob X'0a')");
  CHECK(ParseDump("Name eq 'O''Brien'") == "(eq Name 'O''Brien')");
}

TEST_CASE("parser: a literal on the left is mirrored to property-op-literal", "[odata][parser]") {
  CHECK(ParseDump("5 lt Qty") == "(gt Qty 5:Int32)");
  CHECK(ParseDump("5 le Qty") == "(ge Qty 5:Int32)");
  CHECK(ParseDump("5 gt Qty") == "(lt Qty 5:Int32)");
  CHECK(ParseDump("5 ge Qty") == "(le Qty 5:Int32)");
  CHECK(ParseDump("'a' eq RowKey") == "(eq RowKey 'a')");
  CHECK(ParseDump("'a' ne RowKey") == "(ne RowKey 'a')");
}

TEST_CASE("parser: not binds tighter than comparison groups, and tighter than or",
          "[odata][parser]") {
  CHECK(ParseDump("a eq 1 or b eq 2 and c eq 3") ==
        "(or (eq a 1:Int32) (and (eq b 2:Int32) (eq c 3:Int32)))");
  CHECK(ParseDump("a eq 1 and b eq 2 or c eq 3") ==
        "(or (and (eq a 1:Int32) (eq b 2:Int32)) (eq c 3:Int32))");
  CHECK(ParseDump("(a eq 1 or b eq 2) and c eq 3") ==
        "(and (or (eq a 1:Int32) (eq b 2:Int32)) (eq c 3:Int32))");
  CHECK(ParseDump("not a eq 1 and b eq 2") == "(and (not (eq a 1:Int32)) (eq b 2:Int32))");
  CHECK(ParseDump("not (a eq 1 or b eq 2)") == "(not (or (eq a 1:Int32) (eq b 2:Int32)))");
  CHECK(ParseDump("not not a eq 1") == "(not (not (eq a 1:Int32)))");
  CHECK(ParseDump("a eq 1 and b eq 2 and c eq 3") ==
        "(and (and (eq a 1:Int32) (eq b 2:Int32)) (eq c 3:Int32))");
}

TEST_CASE("parser: the .NET SDK's fully parenthesised filter parses", "[odata][parser]") {
  CHECK(ParseDump("((PartitionKey eq 'x') and (RowKey ge 'y')) and (IsGCed eq false) and "
                  "(LongPrimitive gt 60L)") ==
        "(and (and (and (eq PartitionKey 'x') (ge RowKey 'y')) (eq IsGCed false)) "
        "(gt LongPrimitive 60:Int64))");
}

TEST_CASE("parser: comparisons on keys are identifiable for a planner", "[odata][parser]") {
  Result<ExprTree> expr = ParseExpr("PartitionKey eq 'p' and 'r' le RowKey");
  REQUIRE(expr.has_value());
  CHECK((*expr)->left->IsComparisonOn("PartitionKey"));
  CHECK((*expr)->right->IsComparisonOn("RowKey"));
  CHECK((*expr)->right->op == CompareOp::kGe);
  CHECK((*expr)->right->offset == 24);
  CHECK((*expr)->right->literal.offset == 24);
}

TEST_CASE("parser: malformed filters fail with the offset of the problem", "[odata][parser]") {
  CHECK(
      ParseDump("") ==
      "error: Invalid $filter at position 0: expected a property name or a literal, found the end");
  CHECK(ParseDump("IsActive") ==
        "error: Invalid $filter at position 8: expected a comparison operator (eq ne gt ge lt le), "
        "found the end");
  CHECK(ParseDump("a eq 1 b eq 2") ==
        "error: Invalid $filter at position 7: expected 'and', 'or' or the end of the filter, "
        "found 'Identifier'");
  CHECK(ParseDump("(a eq 1") ==
        "error: Invalid $filter at position 7: expected ')' closing the '(' at position 0, found "
        "the end");
  CHECK(ParseDump("a eq 1)") ==
        "error: Invalid $filter at position 6: expected 'and', 'or' or the end of the filter, "
        "found ')'");
  CHECK(ParseDump("a eq b") ==
        "error: Invalid $filter at position 5: comparing two properties is not supported");
  CHECK(ParseDump("1 eq 1") ==
        "error: Invalid $filter at position 0: a comparison needs a property on one side");
  CHECK(ParseDump("a eq null") ==
        "error: Invalid $filter at position 5: null is not supported in a filter");
  CHECK(ParseDump("a eq 1 and") ==
        "error: Invalid $filter at position 10: expected a property name or a literal, found the "
        "end");
  CHECK(ParseDump("a eq eq") ==
        "error: Invalid $filter at position 5: expected a property name or a literal, found 'eq'");
}

TEST_CASE("parser: functions and arithmetic are NotImplemented", "[odata][parser]") {
  Result<ExprTree> call = ParseExpr("startswith(RowKey, 'x') eq true");
  REQUIRE_FALSE(call.has_value());
  CHECK(call.error().code == ErrorCode::kNotImplemented);
  CHECK(call.error().message ==
        "The function 'startswith' at position 0 is not supported in a $filter.");
  Result<ExprTree> add = ParseExpr("a eq 1 or Qty add 1 eq 5");
  REQUIRE_FALSE(add.has_value());
  CHECK(add.error().code == ErrorCode::kNotImplemented);
  CHECK(add.error().message == "The operator 'add' at position 10 is not supported in a $filter.");
}

TEST_CASE("parser: nesting is bounded, so deep input fails instead of exhausting the stack",
          "[odata][parser]") {
  auto nested = [](std::size_t depth) {
    return std::string(depth, '(') + "a eq 1" + std::string(depth, ')');
  };
  CHECK(ParseDump(nested(kMaxNestingDepth - 1)) == "(eq a 1:Int32)");
  CHECK(ParseDump(nested(100)) ==
        "error: Invalid $filter at position 64: nesting deeper than 64 levels");
  CHECK(ParseDump(nested(100000)).rfind("error: ", 0) == 0);
  std::string nots;
  for (int i = 0; i < 100000; ++i) nots += "not ";
  CHECK(ParseDump(nots + "a eq 1").rfind("error: ", 0) == 0);
}

TEST_CASE("parser: a long and-chain is bounded by kMaxParsedConditions", "[odata][parser]") {
  std::string chain = "a eq 1";
  for (std::size_t i = 1; i < kMaxParsedConditions; ++i) chain += " and a eq 1";
  CHECK(ParseDump(chain).rfind("(and ", 0) == 0);
  CHECK(ParseDump(chain + " or a eq 1") == "error: Invalid $filter at position " +
                                               std::to_string(chain.size() + 4) +
                                               ": more than 256 comparisons and constants");
  // Constants count too, so a chain of them cannot build an unbounded tree either.
  std::string constants = "true";
  for (std::size_t i = 1; i < kMaxParsedConditions; ++i) constants += " and true";
  CHECK(ParseDump(constants).rfind("(and ", 0) == 0);
  CHECK(ParseDump(constants + " or false") == "error: Invalid $filter at position " +
                                                  std::to_string(constants.size() + 4) +
                                                  ": more than 256 comparisons and constants");
}

TEST_CASE("parser: a boolean literal stands alone wherever a condition may", "[odata][parser]") {
  CHECK(ParseDump("false") == "false");
  CHECK(ParseDump("true") == "true");
  CHECK(ParseDump("not false") == "(not false)");
  CHECK(ParseDump("true and RowKey eq '1'") == "(and true (eq RowKey '1'))");
  CHECK(ParseDump("(false or PartitionKey eq 'a') or PartitionKey eq 'b'") ==
        "(or (or false (eq PartitionKey 'a')) (eq PartitionKey 'b'))");
  CHECK(ParseDump("(true)") == "true");
  // Followed by a comparison operator it is still a comparison's literal.
  CHECK(ParseDump("true eq IsActive") == "(eq IsActive true)");
  CHECK(ParseDump("IsActive eq true and false") == "(and (eq IsActive true) false)");
  CHECK(ParseDump("true eq true") ==
        "error: Invalid $filter at position 0: a comparison needs a property on one side");
  CHECK(ParseDump("true IsActive") ==
        "error: Invalid $filter at position 5: expected 'and', 'or' or the end of the filter, "
        "found 'Identifier'");
  CHECK(ParseDump("1") ==
        "error: Invalid $filter at position 1: expected a comparison operator (eq ne gt ge lt le), "
        "found the end");
}

TEST_CASE("parser: nodes past an ExprTree's reserved block stay where they were made",
          "[odata][parser]") {
  ExprTree tree(1);
  Literal one;
  one.type = EdmType::kInt32;
  one.text = "1";
  Expr* a = tree.Compare("a", CompareOp::kEq, std::move(one), 0);
  Literal two;
  two.type = EdmType::kString;
  two.text = "x";
  Expr* b = tree.Compare("b", CompareOp::kLt, std::move(two), 11);
  tree.set_root(tree.Not(tree.Binary(Expr::Kind::kAnd, a, b, 7), 0));
  const ExprTree moved = std::move(tree);
  CHECK(moved->Dump() == "(not (and (eq a 1:Int32) (lt b 'x')))");
  CHECK(moved.root().left->right == b);
}

}  // namespace
}  // namespace malachite::odata
