// Rate limiters for the scalability targets (spec §12.1), as GCRA (the "generic cell rate
// algorithm", a token bucket kept as one number: the theoretical arrival time `tat` of the next
// entity). A limiter of rate R entities/s with burst B accepts B entities at once after a quiet
// spell and then R per second. Time comes in as DateTime (the Clock seam), so tests are exact.
#pragma once

#include <atomic>
#include <cstdint>

#include "common/datetime.h"
#include "common/edm.h"

namespace malachite::server {

// A rate and its burst, converted to the limiters' time unit: 1/16 of a DateTime tick (6.25 ns),
// fine enough that 1e7 * 16 / rate rounds to within 0.01% for every rate up to 100,000/s, and
// coarse enough that int64 times (counted from the Unix epoch) last 18,000 years.
class RateLimit {
 public:
  static constexpr std::int64_t kUnitsPerTick = 16;
  static constexpr std::int64_t kUnitsPerSecond = kTicksPerSecond * kUnitsPerTick;

  RateLimit() = default;
  // `rate` entities per second (>= 1); a burst of `burst_ms` milliseconds at that rate.
  RateLimit(std::uint64_t rate, std::uint64_t burst_ms);

  std::uint64_t rate() const { return rate_; }
  // Time units one entity costs.
  std::int64_t interval() const { return interval_; }
  // The burst tolerance: how far ahead of now `tat` may run (burst_ms in time units).
  std::int64_t tolerance() const { return tolerance_; }
  // The burst in entities (rate * burst_ms / 1000, at least 1).
  std::uint64_t burst() const;

  // `t` in the limiters' time unit.
  static std::int64_t Units(DateTime t) { return (t.ticks - kUnixEpochTicks) * kUnitsPerTick; }

 private:
  std::uint64_t rate_ = 1;
  std::int64_t interval_ = kUnitsPerSecond;
  std::int64_t tolerance_ = kUnitsPerSecond;
};

// One GCRA bucket, not thread-safe (the partition table guards it with its shard's mutex).
class Gcra {
 public:
  // Takes `entities` at `now` when the limit allows it: true and charged, or false and nothing
  // charged. A request larger than the whole burst is admitted when the bucket is full (else a
  // batch of 100 could never pass a burst of 50).
  bool TryTake(const RateLimit& limit, std::int64_t now, std::uint64_t entities);
  // Charges `entities` whatever the level: a query's scan, known only after it ran. The bucket
  // may go into debt; TryTake refuses until time has paid it off.
  void Charge(const RateLimit& limit, std::int64_t now, std::uint64_t entities);
  // Gives back what TryTake charged (when a second limiter refused the same request).
  void Refund(const RateLimit& limit, std::uint64_t entities);
  // True when the bucket is full at `now` (its state is the same as a fresh bucket's).
  bool Idle(std::int64_t now) const { return tat_ <= now; }
  // How far past the burst the bucket is, in entities (0 when TryTake(1) would pass).
  std::uint64_t Debt(const RateLimit& limit, std::int64_t now) const;

 private:
  std::int64_t tat_ = 0;  // theoretical arrival time of the next entity
};

// The same algorithm on an atomic `tat`, for the per-account limiters every request touches:
// lock-free (one compare-exchange when uncontended).
class AtomicGcra {
 public:
  bool TryTake(const RateLimit& limit, std::int64_t now, std::uint64_t entities);
  void Charge(const RateLimit& limit, std::int64_t now, std::uint64_t entities);
  void Refund(const RateLimit& limit, std::uint64_t entities);
  std::uint64_t Debt(const RateLimit& limit, std::int64_t now) const;

 private:
  std::atomic<std::int64_t> tat_{0};
};

// Counts entities per one-second window and estimates the recent rate as a sliding window: the
// previous second's count weighted by the part of it still inside the last second, plus the
// current second's. Not thread-safe (guarded with the partition it belongs to).
class RateWindow {
 public:
  void Add(DateTime now, std::uint64_t entities);
  // Entities per second over the last second, as of `now` (>= the last Add).
  double Rate(DateTime now) const;
  // The highest count of one whole second seen, including the current one so far.
  std::uint64_t Peak() const { return peak_ > current_ ? peak_ : current_; }
  std::uint64_t total() const { return total_; }

 private:
  void Roll(std::int64_t second);
  std::int64_t second_ = 0;  // the second `current_` counts
  std::uint64_t current_ = 0;
  std::uint64_t previous_ = 0;
  std::uint64_t peak_ = 0;
  std::uint64_t total_ = 0;
};

}  // namespace malachite::server
