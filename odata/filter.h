// The public face of the $filter pipeline (spec §6): text -> Expr (parse) -> checked Filter ->
// evaluation against any source of typed properties. Stages live in their own files
// (lexer, parser, checker, evaluator); this header is what other modules use.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/edm.h"
#include "common/error.h"

namespace malachite::odata {

// A property value as the evaluator reads it, without owning it. `bytes` views memory owned by
// the source and lives as long as the source does.
struct ValueView {
  EdmType type = EdmType::kString;
  std::int64_t integer = 0;  // Int32, Int64, Boolean (0/1), DateTime ticks
  double number = 0;         // Double
  std::string_view bytes;    // String (UTF-8), Guid (16 raw bytes), Binary
};

// Where the evaluator gets property values from: an entity (PartitionKey, RowKey, Timestamp and
// custom properties) or a table row (TableName).
class PropertySource {
 public:
  virtual ~PropertySource() = default;
  // The property `name` (case-sensitive), or nullopt when the row has no such property.
  virtual std::optional<ValueView> Get(std::string_view name) const = 0;
};

class Expr;  // the parsed tree (ast.h)

// A parsed and checked filter, ready to evaluate. Immutable; shareable across threads.
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

  const Expr& root() const { return *root_; }

 private:
  explicit Filter(std::shared_ptr<const Expr> root) : root_(std::move(root)) {}
  std::shared_ptr<const Expr> root_;
};

}  // namespace malachite::odata
