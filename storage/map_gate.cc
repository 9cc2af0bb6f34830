#include "storage/map_gate.h"

#include <chrono>
#include <thread>

namespace malachite::storage {

std::size_t MapGate::NextStripe() noexcept {
  static std::atomic<std::size_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed) % kStripes;
}

bool MapGate::EnterSlow(std::size_t stripe) noexcept {
  for (;;) {
    // Out again while the gate is closed, so the grower's count can reach zero.
    Leave(stripe);
    {
      std::unique_lock<std::mutex> lock(mu_);
      opened_.wait(lock, [this] { return state_.load(std::memory_order_relaxed) != kClosed; });
      if (state_.load(std::memory_order_relaxed) == kBroken) return false;
    }
    stripes_[stripe].inside.fetch_add(1, std::memory_order_seq_cst);
    if (state_.load(std::memory_order_seq_cst) == kOpen) return true;
  }
}

void MapGate::SetState(State state) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    state_.store(state, std::memory_order_seq_cst);
  }
  if (state != kClosed) opened_.notify_all();
}

void MapGate::WaitUntilEmpty() const {
  // A reader adds to its stripe before it reads the state, and the state was stored (closed)
  // before these loads (both sequentially consistent): a reader the loads miss sees the gate
  // closed and leaves again. While the gate is closed the stripes only go down (leaves, and the
  // enters that turn back), so a sum of zero read stripe by stripe means nobody is inside.
  for (int round = 0;; ++round) {
    std::uint64_t inside = 0;
    for (const Stripe& stripe : stripes_) inside += stripe.inside.load(std::memory_order_seq_cst);
    if (inside == 0) return;
    // Readers are short (a point read, a page of a query): yield first, then sleep a little.
    if (round < 64) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }
}

void MapGate::Remap(FunctionRef<void()> remap) {
  std::unique_lock<std::shared_mutex> long_readers(long_mu_);
  SetState(kClosed);
  WaitUntilEmpty();
  remap();
  if (!broken()) SetState(kOpen);
}

void MapGate::Break(Error error) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    broken_error_ = std::move(error);
  }
  SetState(kBroken);
}

Error MapGate::broken_error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return broken_error_;
}

}  // namespace malachite::storage
