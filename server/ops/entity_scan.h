// Executes a Query Entities scan plan against one storage snapshot: only the plan's key ranges,
// from a continuation key on, with the residual predicate, until the page is full or the time
// budget is spent (spec §6.5). Synchronous; the caller owns the ReadView (ARCHITECTURE.md rule 2).
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
#include "storage/stored_entities.h"

namespace malachite::server {

struct ScanLimits {
  std::size_t top = 1000;                          // entities per page, 1..1000
  std::chrono::steady_clock::time_point deadline;  // stop scanning after this (partial page)
};

// One page.
struct EntityPage {
  storage::StoredEntities entities;  // matches in key order, as stored
  // Where the next page starts (inclusive, row key set): the first entity not examined. Unset
  // when the plan's ranges are exhausted.
  std::optional<KeyBound> next;
  std::uint64_t scanned = 0;  // entities read from storage (matching or not)
};

// Exposes an Entity to $filter: PartitionKey and RowKey (String), Timestamp (DateTime) and the
// custom properties. Views into `entity`, which must outlive this object.
class EntitySource final : public PropertySource {
 public:
  explicit EntitySource(const Entity& entity) : entity_(entity) {}
  std::optional<PropertyView> Get(std::string_view name) const override;

 private:
  const Entity& entity_;
};

// Scans `plan` over `table` in `view`. A range that is a single key is read with one GetEntity.
// With `within` (a SAS key range, spec §10.8) only keys inside it are scanned, so the page and
// its continuation stay inside the range. Errors: those of the ReadView (kInternalError).
// `start` is where the page resumes (an inclusive lower bound: NextPartitionKey and, optionally,
// NextRowKey; unset: the start of the table).
Result<EntityPage> ScanPage(storage::ReadView& view, const storage::TableInfo& table,
                            const odata::ScanPlan& plan, const std::optional<KeyBound>& start,
                            const ScanLimits& limits, const KeyRange* within = nullptr);

}  // namespace malachite::server
