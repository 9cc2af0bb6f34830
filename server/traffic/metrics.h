// Request metrics for GET /-/metrics (Prometheus text format 0.0.4): request counts and latency
// histograms by operation and status, entities written and scanned, throttled requests and
// injected faults. Recording is a few relaxed atomic increments on counters striped by thread,
// so I/O threads do not fight over cache lines; rendering sums the stripes.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "server/http/route.h"
#include "server/traffic/fault_injector.h"
#include "server/traffic/throttle.h"

namespace malachite::server {

class Metrics {
 public:
  Metrics();

  // One answered request: its operation (nullopt when it could not be routed), HTTP status and
  // time from parsed request to response ready.
  void RecordRequest(std::optional<Operation> op, int status, std::chrono::nanoseconds latency);
  // Entities of admitted writes (a $batch counts its operations).
  void AddEntitiesWritten(std::uint64_t n) { Add(kWritten, n); }
  // Entities queries read from storage, matching or not (a point read counts 1).
  void AddEntitiesScanned(std::uint64_t n) { Add(kScanned, n); }
  // A request refused by the throttle (verdict != kAdmitted).
  void AddThrottled(ThrottleVerdict verdict);
  void AddFault(FaultKind fault);

  // Totals since startup (the traffic history's throttled and fault charts).
  std::uint64_t ThrottledTotal() const;
  std::uint64_t FaultsTotal() const;

  // Appends every series with a non-zero value (counters and histograms), with HELP/TYPE lines.
  void Render(std::string& out) const;

 private:
  static constexpr std::size_t kOperations = static_cast<std::size_t>(Operation::kPreflight) + 2;
  static constexpr std::size_t kStatuses = 21;  // the statuses the service uses, plus "other"
  static constexpr std::size_t kBuckets = 17;   // 16 bounds + "+Inf"
  static constexpr std::size_t kStripes = 4;
  enum Counter : std::size_t {
    kWritten,
    kScanned,
    kThrottledPartition,
    kThrottledAccount,
    kThrottledOffline,
    kFaultServerBusy,
    kFaultTimedOut,
    kFaultDelay,
    kFaultDrop,
    kCounters
  };

  struct Cell {
    std::array<std::atomic<std::uint64_t>, kBuckets> buckets{};  // not cumulative
    std::atomic<std::uint64_t> sum_ns{0};
  };
  struct Stripe {
    std::array<Cell, kOperations * kStatuses> cells;
    std::array<std::atomic<std::uint64_t>, kCounters> counters{};
  };

  void Add(Counter counter, std::uint64_t n);
  Stripe& Mine();
  std::uint64_t Sum(Counter counter) const;

  std::unique_ptr<Stripe[]> stripes_;
};

}  // namespace malachite::server
