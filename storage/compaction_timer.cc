#include "storage/compaction_timer.h"

namespace malachite::storage {

CompactionTimer::CompactionTimer(std::chrono::milliseconds check_interval,
                                 std::chrono::milliseconds min_interval, std::function<bool()> pays,
                                 std::function<void()> compact)
    : check_interval_(check_interval),
      min_interval_(min_interval),
      pays_(std::move(pays)),
      compact_(std::move(compact)) {
  thread_ = std::thread([this] { Run(); });
}

CompactionTimer::~CompactionTimer() { Stop(); }

void CompactionTimer::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void CompactionTimer::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (cv_.wait_for(lock, check_interval_, [this] { return stopping_; })) return;
    lock.unlock();
    const auto now = std::chrono::steady_clock::now();
    // The interval holds after a failure too: a disk without room for the copy is not asked
    // again at every check.
    if ((!last_attempt_ || now - *last_attempt_ >= min_interval_) && pays_()) {
      last_attempt_ = now;
      compact_();
    }
    lock.lock();
  }
}

}  // namespace malachite::storage
