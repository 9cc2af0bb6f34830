// The clock seam: the one thing tests may replace.
#pragma once

#include <atomic>

#include "common/edm.h"

namespace malachite {

class Clock {
 public:
  virtual ~Clock() = default;
  // The current UTC time at tick (100 ns) resolution. Thread-safe.
  virtual DateTime Now() const = 0;
};

// Reads the system realtime clock.
class SystemClock final : public Clock {
 public:
  DateTime Now() const override;
  // The process-wide instance.
  static const SystemClock& Instance();
};

// A clock tests set by hand. Thread-safe.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(DateTime start) : ticks_(start.ticks) {}
  DateTime Now() const override { return DateTime{ticks_.load()}; }
  void Set(DateTime t) { ticks_.store(t.ticks); }
  void Advance(std::int64_t ticks) { ticks_.fetch_add(ticks); }

 private:
  std::atomic<std::int64_t> ticks_;
};

}  // namespace malachite
