// Stage 5a of $filter: the keys a checked filter can match, as key ranges. The scan planner
// (planner.h) builds on this; it is split out because the key-set algebra is a unit of its own.
#pragma once

#include <string_view>
#include <vector>

#include "common/key_range.h"
#include "odata/ast.h"

namespace malachite::odata {

// The property names that are the first and second key: PartitionKey and RowKey for entities,
// TableName alone (second empty) for the table catalog.
struct KeyNames {
  std::string_view first;
  std::string_view second;
};

// Key ranges covering every key a filter can match (a superset), and whether they are exactly
// the matching keys (then no residual predicate is needed).
struct KeyCover {
  std::vector<KeyRange> ranges;  // not normalised: may overlap, in no particular order
  bool exact = true;
};

// The cover of `expr` (null: no filter, i.e. every key, exactly). REQUIRES: `expr` went through
// Check. Only comparisons of a key with a valid-UTF-8, NUL-free String literal narrow; a key
// against another literal type is everything or nothing (the evaluator's cross-type rule);
// other properties do not narrow; `not` is pushed down to the comparisons. Never fails.
KeyCover CoverKeys(const Expr* expr, const KeyNames& keys);

}  // namespace malachite::odata
