// Stage 5 of $filter: the scan plan (ARCHITECTURE.md rule 4). From a checked filter, the key ranges
// a query must scan — a superset of the matching keys, in key order, disjoint — plus the residual
// predicate that decides each scanned row, and the class of query the real service would run.
//
// odata does not know storage: a KeyRange (plan_range.h) is shaped like KeyRange and
// the server converts one into the other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/key_range.h"
#include "odata/filter.h"

namespace malachite::odata {

// What Malachite scans.
enum class PlanKind : std::uint8_t {
  kEmpty,           // nothing can match (e.g. `PartitionKey eq 5`, `RowKey lt ''`)
  kPoint,           // one key
  kPoints,          // several single keys
  kRowRange,        // one range inside one partition
  kPartition,       // exactly one whole partition
  kPartitionRange,  // one range across partitions, bounded on at least one side
  kRanges,          // several ranges (not all points)
  kTableScan,       // the whole table
};

// Azure: design guide "Design for querying" — the class of query the real service runs, which
// is what an application must be designed for. Decided from the filter's top-level `and`
// conjuncts only, as the service does: an `or` (even over RowKeys of one partition) is not
// turned into key lookups (a partition scan when PartitionKey is fixed, else a table scan).
enum class ServiceClass : std::uint8_t {
  kPoint,           // PartitionKey eq and RowKey eq
  kRowRange,        // PartitionKey eq and a RowKey gt/ge/lt/le
  kPartitionScan,   // PartitionKey eq, RowKey not usable
  kPartitionRange,  // (rec.) PartitionKey gt/ge/lt/le without PartitionKey eq: a range over
                    // partitions; the service may return continuations at partition-server edges
  kTableScan,       // no usable PartitionKey condition
};

// "empty", "point", "points", "row-range", "partition", "partition-range", "ranges", "table-scan".
std::string_view PlanKindName(PlanKind kind);
// "point", "row-range", "partition-scan", "partition-range", "table-scan".
std::string_view ServiceClassName(ServiceClass service);

// The plan for one query. Immutable after Make; cheap to move.
class ScanPlan {
 public:
  // Plans `filter` (null: no $filter, i.e. the whole table and no residual) over entity keys
  // (PartitionKey, RowKey). Never fails: whatever the planner cannot narrow becomes a wider range.
  // Only comparisons of a key with a valid-UTF-8, NUL-free String literal narrow; comparisons of a
  // key with other literal types follow the evaluator's cross-type rules (`PartitionKey eq 5`
  // matches nothing, `PartitionKey gt 5` everything); other properties do not narrow; `not` is
  // pushed down to the comparisons. The filter must outlive the plan (the residual points to it).
  static ScanPlan Make(const Filter* filter);
  // The same over the table catalog (Query Tables): TableName is the only key, so ranges have
  // no RowKey side (a name is the partition edge pair `'name'/*`); the Dump has no service class.
  // A caller checks a name with RangeContains(range, name, "").
  static ScanPlan MakeForTables(const Filter* filter);

  PlanKind kind() const { return kind_; }
  ServiceClass service_class() const { return service_; }
  // Disjoint, in key order; empty for kEmpty.
  const std::vector<KeyRange>& ranges() const { return ranges_; }
  // The predicate a scanned row must still satisfy: the whole filter, or null when the ranges
  // hold exactly the matching keys (every condition was a key comparison the ranges express).
  const Filter* residual() const { return residual_; }
  // True when the row passes the residual (always, without one).
  bool Matches(const PropertySource& row) const { return !residual_ || residual_->Matches(row); }

  // The ranges clipped to keys >= (pk, rk) — with `rk` unset, >= the start of partition `pk` —
  // the resume point of a continuation. Ranges wholly before it are dropped.
  std::vector<KeyRange> RangesFrom(std::string_view pk, std::optional<std::string_view> rk) const;

  // `plan=points(2) service=partition-scan ranges=['a'/'1', 'a'/'2'] residual=none`. A range
  // prints as `'pk'/'rk'` (a point), `'pk'/*` (a whole partition) or `[lower .. upper)` with
  // `'pk'/*` for a partition edge and -inf/+inf for an open end; strings in OData quoting.
  // Bytes outside printable ASCII print as \xNN, so the dump is a valid HTTP header value.
  std::string Dump() const;

 private:
  static ScanPlan Build(const Filter* filter, std::string_view first_key,
                        std::string_view second_key);

  PlanKind kind_ = PlanKind::kTableScan;
  ServiceClass service_ = ServiceClass::kTableScan;
  std::vector<KeyRange> ranges_;
  const Filter* residual_ = nullptr;
  bool for_tables_ = false;
};

}  // namespace malachite::odata
