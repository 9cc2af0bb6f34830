// Hands out strictly increasing Timestamps (they are also ETags, so two writes must never share
// one). Used only on the writer thread: no locking.
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/clock.h"

namespace malachite::storage {

class TimestampSource {
 public:
  // `last_ticks`: the greatest timestamp ever handed out (persisted in "meta"), 0 if none.
  TimestampSource(const Clock& clock, std::int64_t last_ticks)
      : clock_(clock), last_ticks_(last_ticks) {}

  // max(clock now, last + 1 tick): strictly increasing even if the clock stalls or steps back,
  // in this process and across restarts.
  DateTime Next() {
    last_ticks_ = Peek().ticks;
    return DateTime{last_ticks_};
  }
  // What Next() would return now, without handing it out; Take(it) hands it out later.
  DateTime Peek() const { return DateTime{std::max(clock_.Now().ticks, last_ticks_ + 1)}; }
  // REQUIRES: `t` came from Peek() with no Next() or Take() since.
  void Take(DateTime t) { last_ticks_ = t.ticks; }
  std::int64_t last_ticks() const { return last_ticks_; }

 private:
  const Clock& clock_;
  std::int64_t last_ticks_;
};

}  // namespace malachite::storage
