// The public face of the $filter pipeline (spec §6): text -> Expr (parse) -> checked Filter ->
// evaluation against any source of typed properties. Stages live in their own files
// (lexer, parser, checker, evaluator); this header is what other modules use.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "common/error.h"
#include "common/property_source.h"
#include "odata/ast.h"

namespace malachite::odata {

// A parsed and checked filter, ready to evaluate. Immutable (shareable across threads by
// reference); move-only, and a move keeps root() where it is.
class Filter {
 public:
  // Runs lexer, parser and checker. Errors: kInvalidInput with a message naming the byte offset
  // of the problem (the service's 400), or the code spec §6.3 names for the case (e.g. too many
  // comparisons, Int32 literal out of range); kNotImplemented for functions and arithmetic
  // (`startswith(...)`, `Qty add 1`), which the service does not support. Empty or all-blank text
  // is an error too: a caller whose $filter is absent or empty should not build a Filter at all.
  // `text` is the decoded query parameter value (percent-decoding is the caller's job).
  static Result<Filter> Parse(std::string_view text);

  // True when the row matches (spec §6.2 typed semantics: a comparison with a missing property
  // is false, also for `ne`; a value of another EDM type (no promotion between Int32, Int64 and
  // Double) fails `eq` and passes `ne`; `not` negates, so `not (Foo eq 1)` holds without Foo).
  // Allocates nothing; thread-safe (a Filter is immutable).
  bool Matches(const PropertySource& row) const;

  // Canonical printable form of the checked tree, for tests and logs.
  std::string Dump() const;

  const Expr& root() const { return tree_.root(); }

 private:
  explicit Filter(ExprTree tree) : tree_(std::move(tree)) {}
  ExprTree tree_;
};

}  // namespace malachite::odata
