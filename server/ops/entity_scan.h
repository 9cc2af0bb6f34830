// Executes a Query Entities scan plan against one storage snapshot: only the plan's key ranges,
// from a continuation key on, with the residual predicate, until the page is full or the time
// budget is spent (spec §6.5). Synchronous; the caller owns the ReadView (ARCHITECTURE.md rule 2)
// and receives each match while the snapshot is open, read in place, never copied.
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
#include "common/function_ref.h"
#include "odata/evaluator.h"
#include "odata/filter.h"
#include "odata/planner.h"
#include "server/wire/entity_json_render.h"
#include "storage/entity_codec.h"
#include "storage/store.h"

namespace malachite::server {

struct ScanLimits {
  std::size_t top = 1000;  // entities per page, 1..1000 (a $top of 0 never scans)
  // Stop scanning after this (partial page). The time the caller spends on each match counts.
  std::chrono::steady_clock::time_point deadline;
};

// One page; its matches went to the caller as the scan found them.
struct EntityPage {
  std::size_t matched = 0;  // entities passed to on_match
  // Where the next page starts (inclusive, row key set): the first entity not examined. Unset
  // when the plan's ranges are exhausted.
  std::optional<KeyBound> next;
  std::uint64_t scanned = 0;  // entities read from storage (matching or not)
  // A comparison of the residual filter whose literal has another EDM type than the property
  // in one of the first kTypeSamples entities examined (design advisor).
  std::optional<odata::TypeMismatch> type_mismatch;
};

// How many entities of a page are checked for a comparison of mismatched types: enough for a
// table whose entities all hold a property with one type, and cheap (a few property lookups).
inline constexpr std::uint64_t kTypeSamples = 4;

// A stored entity as the renderer reads it: keys and properties straight from the stored record
// (in LMDB memory while the snapshot is open), never decoded into an Entity. Views into `entity`,
// which must outlive this object.
class StoredEntityJson final : public EntityJsonSource {
 public:
  explicit StoredEntityJson(const storage::EntityView& entity)
      : partition_key_(entity.partition_key()), row_key_(entity.row_key()) {
    // The store read this record's header: it parses. Were its properties malformed, it would
    // render those that are readable, as a partly readable list renders its readable part.
    (void)record_.Reset(entity.EncodedRecord());
  }
  std::string_view partition_key() const override { return partition_key_; }
  std::string_view row_key() const override { return row_key_; }
  DateTime timestamp() const override { return record_.timestamp(); }
  void ForEachProperty(
      FunctionRef<void(std::string_view, const PropertyView&)> visit) const override {
    (void)record_.ForEach(visit);
  }
  std::optional<PropertyView> FindProperty(std::string_view name) const override {
    return record_.Find(name);
  }

 private:
  std::string_view partition_key_;
  std::string_view row_key_;
  storage::EntityRecord record_;
};

// Scans `plan` over `table` in `view`. A range that is a single key is read with one lookup.
// With `within` (a SAS key range, spec §10.8) only keys inside it are scanned, so the page and
// its continuation stay inside the range. Errors: those of the ReadView (kInternalError).
// `start` is where the page resumes (an inclusive lower bound: NextPartitionKey and, optionally,
// NextRowKey; unset: the start of the table). Each match, in key order, is passed to `on_match`
// during the scan: the source reads the entity where the snapshot holds it and lives only for
// the call, so `on_match` copies what it keeps and must not suspend (the read transaction is
// open). On an error, the matches already passed are not a page: the caller discards them.
Result<EntityPage> ScanPage(storage::ReadView& view, const storage::TableInfo& table,
                            const odata::ScanPlan& plan, const std::optional<KeyBound>& start,
                            const ScanLimits& limits,
                            FunctionRef<void(const EntityJsonSource&)> on_match,
                            const KeyRange* within = nullptr);

}  // namespace malachite::server
