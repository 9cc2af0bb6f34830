// Capacity as the service bills it: every table's entity count and the sum of its entities'
// billable sizes (common/entity_size.h). Computed on demand by reading every entity — its cost
// is reported with the result, and bounded by a time budget.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/edm.h"
#include "common/error.h"
#include "storage/store.h"

namespace malachite::server {

struct TableCapacity {
  std::string table;  // as created
  std::uint64_t entities = 0;
  std::uint64_t bytes = 0;
};

struct CapacityReport {
  std::string account;
  std::vector<TableCapacity> tables;  // in the catalog's (case-insensitive name) order
  // False when the budget ran out: the counts are lower bounds and later tables are missing.
  bool complete = true;
  std::chrono::microseconds elapsed{0};  // what the measurement cost
  DateTime measured;                     // when

  std::uint64_t entities() const;
  std::uint64_t bytes() const;
};

// Measures `account`'s tables (only `table` when given, matched case-insensitively) in one
// snapshot, stopping after `budget`. Errors: storage errors; kTableNotFound for an absent
// `table`.
Result<CapacityReport> MeasureCapacity(storage::Store& store, std::string_view account,
                                       std::optional<std::string_view> table,
                                       std::chrono::milliseconds budget, DateTime now);

// The report as JSON: {"account", "entities", "bytes", "complete", "elapsed_ms", "measured",
// "tables": [{"table", "entities", "bytes"}]}.
std::string CapacityJson(const CapacityReport& report);

}  // namespace malachite::server
