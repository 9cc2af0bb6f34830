// Stage 2 of $filter: tokens -> Expr tree (spec §6.1 grammar), recursive descent.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "odata/ast.h"
#include "odata/lexer.h"

namespace malachite::odata {

// Nesting deeper than this (parentheses plus `not`s) is refused, so no input can exhaust the
// stack of the parser, the checker, the evaluator or the tree's destructor.
// Emulator: the service's own limit is unknown; legitimate SDK filters (≤ 15 comparisons, spec
// §6.3) never nest more than ~20 levels.
inline constexpr std::size_t kMaxNestingDepth = 64;
// A chain of and/or builds a tree as deep as it is long; this bound on its leaves (comparisons
// and boolean constants) keeps that depth (and the work spent on a hostile filter) small. The
// service's own, much lower limit (15 comparisons, spec §6.3) is the checker's business and gets
// the service's error.
inline constexpr std::size_t kMaxParsedConditions = 256;

// Builds the tree from `tokens` (as returned by Lex: ends with kEnd). Precedence, tightest first:
// `not`, comparison, `and`, `or`; and/or are left-associative. A comparison has a property on one
// side and a literal on the other; `literal op property` is returned mirrored as
// `property Mirror(op) literal`. A boolean literal not followed by a comparison operator is a
// constant condition (a kConstant node). Literals are not decoded yet (that is the checker's job).
// Errors: kInvalidInput naming the byte offset: unexpected token, missing ')', property on both
// sides, literal on both sides, a bare property or a non-boolean literal without operator,
// `null` (Azure: spec §6.1), nesting deeper than kMaxNestingDepth, more than
// kMaxParsedConditions comparisons and constants. kNotImplemented for OData syntax the service does
// not support: a function call (`startswith(...)`) or arithmetic (`add sub mul div mod`).
// The tree's nodes are allocated in one block (their number is bounded from the tokens).
// Takes the tokens so that literal texts move into the tree.
Result<ExprTree> ParseTokens(std::vector<Token> tokens);

// Lex + ParseTokens.
Result<ExprTree> ParseExpr(std::string_view text);

}  // namespace malachite::odata
