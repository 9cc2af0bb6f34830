// What a handled request charges against the throttle (spec §12.1): the entities a query scanned,
// and the partition and entity count of a request whose route does not say them. The handlers
// fill these in (ops/handler.h Outcome); TrafficControl::Admit and ChargeScan read them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "odata/evaluator.h"
#include "odata/planner.h"

namespace malachite::server {

// What one query read and returned. Azure: spec §12.1 — the service's entity rate counts the
// entities a query scans, not those it returns, so the throttle charges `scanned`.
struct QueryStats {
  std::uint64_t scanned = 0;   // entities (or tables) read from storage, matching or not
  std::uint64_t returned = 0;  // entities (or tables) in the response
  // Entity reads: the class of query the real service runs (odata/planner.h); a point read
  // (Get Entity) is kPoint. Unset for Query Tables.
  std::optional<odata::ServiceClass> service_class = std::nullopt;
  // Query Entities: a comparison of the $filter whose literal has another EDM type than the
  // property in the first entities scanned (or than a key or Timestamp), for the design advisor.
  std::optional<odata::TypeMismatch> type_mismatch = std::nullopt;
};

// What one entity write request wrote, for the design advisor: the largest entity of its
// single write or $batch by the service's billable size (common/entity_size.h) — 0 when the body is
// too small to carry an entity near the 1 MiB limit (ops/entity_write.h StatsOf) — and the most
// custom properties of one entity. Deletes write no entity (both 0).
struct WriteStats {
  std::uint32_t largest_entity_bytes = 0;
  std::uint32_t most_properties = 0;
};

// Azure: spec §12.1 — for the throttle, the one partition a request works in when its route does
// not name it (Insert Entity's body, a $batch changeset, a query whose plan stays inside one
// PartitionKey), and the entities it counts when admitted (a $batch of N: N). A query's scan is
// charged afterwards from QueryStats::scanned.
struct PartitionCharge {
  std::string partition_key;
  std::uint64_t entities = 1;
  std::string table = {};  // when the route has none ($batch): the operations' table
};

// What the throttle is told about a decoded request, before it runs (TrafficControl::Admit).
struct RequestCharge {
  const PartitionCharge* partition = nullptr;  // the handler's partition and entity count
  bool writes = false;                         // the request carries a write to apply
};

}  // namespace malachite::server
