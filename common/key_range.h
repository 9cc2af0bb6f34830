// Key ranges in the service's key order: (PartitionKey, RowKey), each by UTF-16 code unit (spec §3;
// CompareUtf16Order in encoding.h, and storage's key encoding, agree on it). One vocabulary for
// every range: a query plan's ranges (odata), a storage scan (storage), a SAS token's key range
// (auth), where a page resumes and where the next page starts (ops).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace malachite {

// One end of a key range. With `row_key` unset the bound is the edge of partition
// `partition_key`: for a lower bound its start (inclusive) or its end (exclusive: the range
// starts after the partition); for an upper bound its end (inclusive) or its start (exclusive).
struct KeyBound {
  std::string partition_key;
  std::optional<std::string> row_key;
  bool inclusive = true;
};

// Keys between `lower` and `upper`; an unset bound is the start/end of the table.
struct KeyRange {
  std::optional<KeyBound> lower;
  std::optional<KeyBound> upper;

  // Exactly one key: both bounds inclusive on the same PartitionKey and RowKey.
  bool IsPoint() const;
  // Exactly one whole partition: both bounds inclusive edges of the same PartitionKey.
  bool IsPartition() const;
  // Both bounds set and inside one partition (a point and a whole partition included).
  bool InOnePartition() const;
  // True when no key can lie inside (lower at or after upper).
  bool IsEmpty() const;
};

// Sorts `ranges` by lower bound, drops empty ones and merges those that overlap or touch, so the
// result is disjoint and in key order. Never loses a key of the input.
std::vector<KeyRange> NormalizeRanges(std::vector<KeyRange> ranges);

// `ranges` (disjoint, in key order) restricted to keys >= (pk, rk), or >= the start of partition
// `pk` when `rk` is unset: the resume point of a continuation. Ranges wholly before it are dropped.
std::vector<KeyRange> ClipRanges(const std::vector<KeyRange>& ranges, std::string_view pk,
                                 std::optional<std::string_view> rk);

// `ranges` (disjoint, in key order) restricted to the keys inside `within` (e.g. the key range of
// a shared access signature, spec §10.8); ranges left empty are dropped.
std::vector<KeyRange> IntersectRanges(const std::vector<KeyRange>& ranges, const KeyRange& within);

// True when the key (pk, rk) is inside `range`.
bool RangeContains(const KeyRange& range, std::string_view pk, std::string_view rk);

// `'a'/'1'` (a point), `'a'/*` (a whole partition), else `[lower .. upper)` with brackets for
// inclusive ends, `'pk'/*` for a partition edge, `'pk'/'rk'` for a key, -inf/+inf for open ends.
// Strings in OData quoting ('' for '); bytes outside printable ASCII and '\' print as \xNN.
std::string DumpRange(const KeyRange& range);
// `[r1, r2, ...]`.
std::string DumpRanges(const std::vector<KeyRange>& ranges);
// A string in the quoting DumpRange uses.
void AppendQuotedKey(std::string& out, std::string_view key);

}  // namespace malachite
