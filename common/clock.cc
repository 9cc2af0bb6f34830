#include "common/clock.h"

#include <chrono>

#include "common/datetime.h"

namespace malachite {

DateTime SystemClock::Now() const {
  using namespace std::chrono;
  auto since_epoch = system_clock::now().time_since_epoch();
  // system_clock on Linux has nanosecond resolution; the service keeps 100 ns ticks.
  auto ticks = duration_cast<nanoseconds>(since_epoch).count() / 100;
  return DateTime{kUnixEpochTicks + ticks};
}

const SystemClock& SystemClock::Instance() {
  static const SystemClock clock;
  return clock;
}

}  // namespace malachite
