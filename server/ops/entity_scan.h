// Executes a Query Entities scan plan against one storage snapshot: only the plan's key ranges,
// from a continuation key on, with the residual predicate, until the page is full or the time
// budget is spent (spec §6.5). Synchronous; the caller owns the ReadView (STYLE rule 2).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/entity.h"
#include "common/error.h"
#include "odata/filter.h"
#include "odata/planner.h"
#include "storage/store.h"

namespace malachite::server {

// Where a page starts: NextPartitionKey and, optionally, NextRowKey (absent: the start of that
// partition). Unset: the start of the table.
struct ScanStart {
  std::string partition_key;
  std::optional<std::string> row_key;
};

struct ScanLimits {
  std::size_t top = 1000;                          // entities per page, 1..1000
  std::chrono::steady_clock::time_point deadline;  // stop scanning after this (partial page)
};

// One page.
struct EntityPage {
  std::vector<Entity> entities;  // matches in key order
  // The key the next page starts at (inclusive): the first entity not examined. Unset when the
  // plan's ranges are exhausted.
  std::optional<std::pair<std::string, std::string>> next;
  std::uint64_t scanned = 0;  // entities read from storage (matching or not)
};

// Exposes an Entity to $filter: PartitionKey and RowKey (String), Timestamp (DateTime) and the
// custom properties. Views into `entity`, which must outlive this object.
class EntitySource final : public odata::PropertySource {
 public:
  explicit EntitySource(const Entity& entity) : entity_(entity) {}
  std::optional<odata::ValueView> Get(std::string_view name) const override;

 private:
  const Entity& entity_;
};

// The same for an entity read in place from LMDB memory during a scan, so an entity the filter
// rejects is never copied. Views into `view`, which must outlive this object.
class ViewSource final : public odata::PropertySource {
 public:
  explicit ViewSource(const storage::EntityView& view) : view_(view) {}
  std::optional<odata::ValueView> Get(std::string_view name) const override;

 private:
  const storage::EntityView& view_;
};

// The storage range of a plan range (same shape, other module).
storage::KeyRange ToKeyRange(const odata::PlanRange& range);

// Scans `plan` over `table` in `view`. A range that is a single key is read with one GetEntity.
// With `within` (a SAS key range, spec §10.8) only keys inside it are scanned, so the page and
// its continuation stay inside the range. Errors: those of the ReadView (kInternalError).
Result<EntityPage> ScanPage(storage::ReadView& view, const storage::TableInfo& table,
                            const odata::ScanPlan& plan, const std::optional<ScanStart>& start,
                            const ScanLimits& limits, const odata::PlanRange* within = nullptr);

}  // namespace malachite::server
