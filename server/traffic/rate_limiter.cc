#include "server/traffic/rate_limiter.h"

#include <algorithm>

namespace malachite::server {
namespace {

// GCRA's decision for a bucket whose next arrival time is `tat`: true (and the new `tat` in
// `next`) when `entities` may pass at `now`. `tat` runs ahead of `now` by what the bucket has
// given out lately; the request passes when that stays within the tolerance. A request costlier
// than the whole burst passes only from a full bucket (tat <= now), so it is never starved for
// good.
bool Admits(const RateLimit& limit, std::int64_t tat, std::int64_t now, std::uint64_t entities,
            std::int64_t& next) {
  const std::int64_t start = std::max(tat, now);
  const std::int64_t cost = static_cast<std::int64_t>(entities) * limit.interval();
  const std::int64_t allowance = std::max(limit.tolerance(), cost);
  if (start + cost - now > allowance) return false;
  next = start + cost;
  return true;
}

std::uint64_t DebtOf(const RateLimit& limit, std::int64_t tat, std::int64_t now) {
  const std::int64_t over = tat + limit.interval() - now - limit.tolerance();
  if (over <= 0) return 0;
  return static_cast<std::uint64_t>((over + limit.interval() - 1) / limit.interval());
}

}  // namespace

RateLimit::RateLimit(std::uint64_t rate, std::uint64_t burst_ms)
    : rate_(std::max<std::uint64_t>(rate, 1)),
      interval_(std::max<std::int64_t>(kUnitsPerSecond / static_cast<std::int64_t>(rate_), 1)),
      tolerance_(static_cast<std::int64_t>(burst_ms) * (kUnitsPerSecond / 1000)) {
  // At least one entity must fit, or a bucket at rest would refuse everything.
  tolerance_ = std::max(tolerance_, interval_);
}

std::uint64_t RateLimit::burst() const {
  return static_cast<std::uint64_t>(tolerance_ / interval_);
}

bool Gcra::TryTake(const RateLimit& limit, std::int64_t now, std::uint64_t entities) {
  std::int64_t next = 0;
  if (!Admits(limit, tat_, now, entities, next)) return false;
  tat_ = next;
  return true;
}

void Gcra::Charge(const RateLimit& limit, std::int64_t now, std::uint64_t entities) {
  tat_ = std::max(tat_, now) + static_cast<std::int64_t>(entities) * limit.interval();
}

void Gcra::Refund(const RateLimit& limit, std::uint64_t entities) {
  tat_ -= static_cast<std::int64_t>(entities) * limit.interval();
}

std::uint64_t Gcra::Debt(const RateLimit& limit, std::int64_t now) const {
  return DebtOf(limit, tat_, now);
}

bool AtomicGcra::TryTake(const RateLimit& limit, std::int64_t now, std::uint64_t entities) {
  std::int64_t tat = tat_.load(std::memory_order_relaxed);
  std::int64_t next = 0;
  do {
    if (!Admits(limit, tat, now, entities, next)) return false;
  } while (!tat_.compare_exchange_weak(tat, next, std::memory_order_relaxed));
  return true;
}

void AtomicGcra::Charge(const RateLimit& limit, std::int64_t now, std::uint64_t entities) {
  const std::int64_t cost = static_cast<std::int64_t>(entities) * limit.interval();
  std::int64_t tat = tat_.load(std::memory_order_relaxed);
  while (!tat_.compare_exchange_weak(tat, std::max(tat, now) + cost, std::memory_order_relaxed)) {
  }
}

void AtomicGcra::Refund(const RateLimit& limit, std::uint64_t entities) {
  tat_.fetch_sub(static_cast<std::int64_t>(entities) * limit.interval(), std::memory_order_relaxed);
}

std::uint64_t AtomicGcra::Debt(const RateLimit& limit, std::int64_t now) const {
  return DebtOf(limit, tat_.load(std::memory_order_relaxed), now);
}

void RateWindow::Roll(std::int64_t second) {
  if (second <= second_) return;  // same second (or a clock set back: count it as now)
  peak_ = std::max(peak_, current_);
  previous_ = second == second_ + 1 ? current_ : 0;
  current_ = 0;
  second_ = second;
}

void RateWindow::Add(DateTime now, std::uint64_t entities) {
  Roll(now.ticks / kTicksPerSecond);
  current_ += entities;
  total_ += entities;
}

double RateWindow::Rate(DateTime now) const {
  const std::int64_t second = now.ticks / kTicksPerSecond;
  const double elapsed =
      static_cast<double>(now.ticks % kTicksPerSecond) / static_cast<double>(kTicksPerSecond);
  if (second <= second_) {
    return static_cast<double>(previous_) * (1.0 - elapsed) + static_cast<double>(current_);
  }
  if (second == second_ + 1) return static_cast<double>(current_) * (1.0 - elapsed);
  return 0.0;
}

}  // namespace malachite::server
