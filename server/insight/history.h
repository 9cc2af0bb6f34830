// The traffic history behind the explorer's live charts: one sample per second (requests by
// operation, errors by Azure code, throttled requests, injected faults, the hottest partitions'
// rates), the last kCapacity seconds in a ring. The sampler thread appends; /-/traffic reads.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/edm.h"
#include "server/insight/request_counters.h"
#include "server/traffic/throttle.h"

namespace malachite::server {

// What happened in one second.
struct TrafficSample {
  DateTime time;  // the end of the second
  std::array<std::uint32_t, RequestCounters::kRequestSlots> requests{};
  std::array<std::uint32_t, RequestCounters::kErrorSlots> errors{};
  std::uint32_t throttled = 0;              // 503 from the throttle
  std::uint32_t faults = 0;                 // fault rules fired
  std::vector<PartitionReport> partitions;  // the hottest, rate > 0
};

// Cumulative totals the sampler turns into one second's sample.
struct TrafficTotals {
  RequestCounters::Totals counters;
  std::uint64_t throttled = 0;
  std::uint64_t faults = 0;
};

class TrafficHistory {
 public:
  static constexpr std::size_t kCapacity = 300;

  // Appends the second ending at `now`: the difference between `totals` and the previous call's
  // (the first call only records the baseline), and the partitions' rates as given.
  void Add(DateTime now, const TrafficTotals& totals, std::vector<PartitionReport> partitions);

  // The samples after `since` (exclusive; DateTime{} for all) as JSON: {"target":...,
  // "samples":[{"t": ms since the Unix epoch, "requests":{op:n}, "errors":{code:n},
  // "throttled":n, "faults":n, "partitions":[AppendPartitionReportJson objects]}]}. Operations
  // with no requests are left out; "Unrouted" counts requests that could not be routed.
  std::string Json(DateTime since, std::uint64_t partition_target) const;

  // Drops `account`'s partitions from every sample kept (a deleted account).
  void ForgetAccount(std::string_view account);

  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::deque<TrafficSample> samples_;
  TrafficTotals last_;
  bool primed_ = false;
};

}  // namespace malachite::server
