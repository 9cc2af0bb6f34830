#include "server/insight/request_counters.h"

namespace malachite::server {

RequestCounters::RequestCounters() : stripes_(std::make_unique<Stripe[]>(kStripes)) {}

RequestCounters::Stripe& RequestCounters::Mine() {
  static std::atomic<std::size_t> next{0};
  thread_local const std::size_t index = next.fetch_add(1, std::memory_order_relaxed) % kStripes;
  return stripes_[index];
}

void RequestCounters::Add(std::optional<Operation> op, std::optional<ErrorCode> error) {
  Stripe& stripe = Mine();
  const std::size_t slot = op ? static_cast<std::size_t>(*op) : kOperationCount;
  stripe.requests[slot].fetch_add(1, std::memory_order_relaxed);
  if (error)
    stripe.errors[static_cast<std::size_t>(*error)].fetch_add(1, std::memory_order_relaxed);
}

RequestCounters::Totals RequestCounters::Sum() const {
  Totals totals;
  for (std::size_t s = 0; s < kStripes; ++s) {
    for (std::size_t i = 0; i < kRequestSlots; ++i) {
      totals.requests[i] += stripes_[s].requests[i].load(std::memory_order_relaxed);
    }
    for (std::size_t i = 0; i < kErrorSlots; ++i) {
      totals.errors[i] += stripes_[s].errors[i].load(std::memory_order_relaxed);
    }
  }
  return totals;
}

}  // namespace malachite::server
