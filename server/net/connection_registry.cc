#include "server/net/connection_registry.h"

#include <algorithm>
#include <vector>

namespace malachite::server {

ConnectionRegistry::Registration::Registration(ConnectionRegistry& registry,
                                               std::function<void()> close)
    : registry_(registry) {
  std::lock_guard lock(registry.mutex_);
  entry_ = registry.entries_.emplace(registry.entries_.end());
  entry_->close = std::move(close);
  entry_->idle_since.store(Now(), std::memory_order_relaxed);
  registry.count_.fetch_add(1, std::memory_order_relaxed);
}

ConnectionRegistry::Registration::~Registration() {
  std::lock_guard lock(registry_.mutex_);
  if (entry_->closing) --registry_.closing_;
  registry_.entries_.erase(entry_);
  registry_.count_.fetch_sub(1, std::memory_order_relaxed);
}

std::size_t ConnectionRegistry::CloseLongestIdle(std::size_t n) {
  std::lock_guard lock(mutex_);
  return CloseLongestIdleLocked(n);
}

std::size_t ConnectionRegistry::CloseLongestIdleLocked(std::size_t n) {
  if (n == 0) return 0;
  // The n oldest idle_since values among idle connections not already asked to close.
  std::vector<std::pair<std::int64_t, Entry*>> idle;
  for (Entry& entry : entries_) {
    const std::int64_t since = entry.idle_since.load(std::memory_order_relaxed);
    if (since != 0 && !entry.closing) idle.emplace_back(since, &entry);
  }
  n = std::min(n, idle.size());
  std::partial_sort(idle.begin(), idle.begin() + static_cast<std::ptrdiff_t>(n), idle.end(),
                    [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < n; ++i) {
    idle[i].second->closing = true;
    ++closing_;
    idle[i].second->close();
  }
  return n;
}

std::size_t ConnectionRegistry::Trim() {
  if (size() <= high_water_) return 0;  // the common case: no lock
  std::lock_guard lock(mutex_);
  const std::size_t open = entries_.size() - closing_;
  if (open <= high_water_) return 0;
  return CloseLongestIdleLocked(open - (high_water_ - high_water_ / 16));
}

}  // namespace malachite::server
