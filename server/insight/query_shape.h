// The shape of a $filter for the design advisor: its tokens with every literal replaced by `?`,
// so that queries differing only in their values count as one, e.g.
//   "PartitionKey eq 'a' and Price gt 10.5"  ->  "PartitionKey eq ? and Price gt ?"
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace malachite::server {

// The shape of `filter` (the decoded $filter text); "" for an empty filter. Allocates at most the
// returned string.
std::string QueryShape(std::string_view filter);

// The end (one past the last byte) of the literal that starts at byte `start` of `filter` (a
// Literal's offset): '...' with '' inside, prefix'...' (datetime, guid, X, binary), a number
// with its suffix, true or false. `filter.size()` when it runs to the end.
std::size_t LiteralEnd(std::string_view filter, std::size_t start);

// The custom properties (not PartitionKey, RowKey or Timestamp) that `filter` compares with `eq`
// among its top-level `and` conjuncts, in order of appearance without repeats: what an index
// entity or a secondary-index key would serve. Empty when `filter` does not parse.
std::vector<std::string> EqualityProperties(std::string_view filter);

}  // namespace malachite::server
