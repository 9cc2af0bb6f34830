// What the insight room keeps per (account, table) from the requests it saw: the bill's
// transaction counts and the design advisor's observations. Plain data, updated by Observe under
// the UsageTable's shard lock (usage_table.h) and copied out for the bill and the advisor.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "common/operation.h"
#include "odata/planner.h"
#include "server/insight/request_facts.h"

namespace malachite::server {

inline constexpr std::size_t kServiceClassCount =
    static_cast<std::size_t>(odata::ServiceClass::kTableScan) + 1;

// One query shape (query_shape.h) of one service class: the advisor's unit for scans.
struct QueryShapeStats {
  odata::ServiceClass service_class = odata::ServiceClass::kTableScan;
  std::string shape;    // "" for a query without $filter
  std::string example;  // the first $filter seen with this shape (cut at 512 bytes)
  std::uint64_t count = 0;
  std::uint64_t scanned = 0;
  std::uint64_t returned = 0;
};

// Inserts and upserts (a $batch counts its entities) in arrival order: do their PartitionKeys
// keep moving to new, ever greater (append) or smaller (prepend) values?
struct InsertTrend {
  static constexpr std::size_t kRecentKeys = 256;
  std::uint64_t inserts = 0;
  std::uint64_t up = 0;        // changes of PartitionKey from one insert to the next: to a greater
  std::uint64_t down = 0;      // ... or to a smaller key
  std::uint64_t revisits = 0;  // changes to a key seen before (a round robin, not an append)
  std::string last_pk;
  bool seen = false;
  // Hashes of the keys seen, direct-mapped (a collision forgets the older key): allocated on
  // the first key change.
  std::vector<std::uint64_t> recent;
};

// Single-entity writes to one partition in short succession (could be one $batch).
struct WriteBursts {
  std::uint64_t single_writes = 0;
  std::uint64_t bursts = 0;   // runs that reached kBurstLength writes
  std::uint64_t run = 0;      // the current run
  std::uint64_t max_run = 0;  // the longest run, its partition and duration
  std::string max_run_pk;
  std::chrono::nanoseconds max_run_time{0};
  std::string last_pk;
  std::chrono::steady_clock::time_point last_at{}, run_start{};
};

// Written entities against the 1 MiB and 252-property limits (spec §9.3).
struct EntityLimits {
  std::uint64_t writes = 0;
  std::uint64_t near_size = 0;        // >= 80% of 1 MiB
  std::uint64_t near_properties = 0;  // >= 200 custom properties
  std::uint64_t max_bytes = 0;
  std::uint64_t max_properties = 0;
  std::string max_bytes_pk, max_properties_pk;
};

// 412 UpdateConditionNotSatisfied answers on one entity.
struct EtagConflict {
  std::string partition_key, row_key;
  std::uint64_t count = 0;
};

// Query Entities whose $filter compares a property with a literal of another EDM type than the
// property holds (odata::TypeMismatch): one entry per $filter text and comparison.
struct TypeMismatchStats {
  std::string filter;  // the $filter text (one longer than kMaxExample is not kept)
  odata::TypeMismatch mismatch;
  std::uint64_t count = 0;
};

// The refusals of the real service that Azurite does not make, one class per rule (spec §9.2,
// §9.3, §7.1, §10.7–10.8), told apart by the ErrorCode and the rule an Error's detail names
// (common/refusal.h).
enum class RefusalClass : std::uint8_t {
  kDateTimeRange,
  kInt32Range,
  kInt64Range,
  kDoubleRange,
  kPropertyValueTooLarge,
  kEntityTooLarge,
  kTooManyProperties,
  kKeyCharacter,
  kBatchOperations,
  kRequestBodyTooLarge,
  kSasPermission,
  kSasResourceType,
  kSasKeyRange,
};
inline constexpr std::size_t kRefusalClassCount =
    static_cast<std::size_t>(RefusalClass::kSasKeyRange) + 1;

// The class of a refusal with `code` and Error::detail `detail`; nullopt for any other error.
std::optional<RefusalClass> ClassifyRefusal(ErrorCode code, std::string_view detail);

// How many requests one class refused, and the first of them.
struct RefusalStats {
  std::uint64_t count = 0;
  ErrorCode code = ErrorCode::kInvalidInput;
  Operation op = Operation::kInsertEntity;
  std::string request;  // "POST /devstoreaccount1/orders", a SAS's `sig` left out
  std::string detail;   // the Error's detail: which property, permission or keys
};

struct TableUsage {
  std::string account;
  std::string table;  // as first named; "" for account-level operations
  // The bill: billable transactions by operation (bill.h says which requests are billable).
  std::array<std::uint64_t, kOperationCount> transactions{};
  // The advisor's observations (reset separately from the bill).
  std::array<std::uint64_t, kOperationCount> requests{};
  std::array<std::uint64_t, kServiceClassCount> queries{};  // by service class
  std::uint64_t scanned = 0, returned = 0;
  std::vector<QueryShapeStats> shapes;  // scans and wasteful queries, at most kMaxShapes
  // The last $filter given a shape and its index in `shapes`: a repeated query skips QueryShape.
  std::string last_filter;
  std::size_t last_shape = SIZE_MAX;
  InsertTrend inserts;
  WriteBursts bursts;
  EntityLimits limits;
  std::vector<EtagConflict> conflicts;  // at most kMaxConflicts entities
  std::uint64_t conflict_total = 0;
  std::uint64_t single_deletes = 0;
  std::vector<TypeMismatchStats> mismatches;  // at most kMaxMismatches
  std::array<RefusalStats, kRefusalClassCount> refusals{};
};

// Bounds and thresholds of the observations (the advisor's detectors read them too).
inline constexpr std::size_t kMaxShapes = 16;
inline constexpr std::size_t kMaxConflicts = 16;
inline constexpr std::size_t kMaxMismatches = 16;
inline constexpr std::size_t kMaxExample = 512;  // bytes of a $filter or request kept
inline constexpr std::uint64_t kBurstLength = 10;
inline constexpr std::chrono::milliseconds kBurstGap{200};
inline constexpr std::uint64_t kNearSizeBytes = 1024 * 1024 * 8 / 10;
inline constexpr std::uint64_t kNearProperties = 200;

// Adds one request to `usage` (`billable`: bill.h IsBillable). Allocates only when it meets a
// new query shape, a new conflicting entity, a longer key than it kept before, a new $filter
// with mismatched types or the first refusal of its class.
void Observe(TableUsage& usage, const RequestFacts& facts, bool billable);

// Forgets the advisor's observations (not the bill).
void ResetObservations(TableUsage& usage);

}  // namespace malachite::server
