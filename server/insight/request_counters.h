// Requests by operation and errors by Azure code since startup, for the traffic history: a few
// relaxed atomic increments on counters striped by thread (as traffic/metrics.h does), summed by
// the once-a-second sampler.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>

#include "common/error.h"
#include "common/operation.h"

namespace malachite::server {

class RequestCounters {
 public:
  // Index kOperationCount counts requests that could not be routed.
  static constexpr std::size_t kRequestSlots = kOperationCount + 1;
  static constexpr std::size_t kErrorSlots = static_cast<std::size_t>(ErrorCode::kCount);

  struct Totals {
    std::array<std::uint64_t, kRequestSlots> requests{};
    std::array<std::uint64_t, kErrorSlots> errors{};
  };

  RequestCounters();

  void Add(std::optional<Operation> op, std::optional<ErrorCode> error);
  Totals Sum() const;

 private:
  static constexpr std::size_t kStripes = 4;
  struct alignas(64) Stripe {
    std::array<std::atomic<std::uint64_t>, kRequestSlots> requests{};
    std::array<std::atomic<std::uint64_t>, kErrorSlots> errors{};
  };
  Stripe& Mine();

  std::unique_ptr<Stripe[]> stripes_;
};

}  // namespace malachite::server
