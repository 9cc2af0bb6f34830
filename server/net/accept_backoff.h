// The accept loop's answer to a failed accept (EMFILE, ENFILE, ENOBUFS): how long to pause, and
// what to log. Not thread-safe: the accept loop and the once-a-second timer share one thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

namespace malachite::server {

class AcceptBackoff {
 public:
  using Clock = std::chrono::steady_clock;

  // A failure episode is a run of failed accepts with less than this between two of them; it
  // is over once this long has passed without one.
  static constexpr std::chrono::milliseconds kEpisodeGap{1000};

  struct Step {
    std::chrono::milliseconds pause;  // before the next accept
    std::optional<std::string> log;   // the episode's first line, only on its first failure
  };

  // One failed accept: `why` is the error, `closed` the idle connections closed to make room.
  // The pause is 1 ms when connections were closed (their descriptors are free now), else
  // 10 ms doubling to 1 s while the failures go on.
  Step Failed(const std::string& why, std::size_t closed, Clock::time_point now);

  // An accept worked: the next failure pauses 10 ms again (the episode itself goes on).
  void Succeeded();

  // Called about once a second: the episode's closing line (how many accepts failed, how many
  // idle connections were closed) once kEpisodeGap has passed since its last failure.
  std::optional<std::string> Tick(Clock::time_point now);

 private:
  static constexpr std::chrono::milliseconds kFirstPause{10};
  static constexpr std::chrono::milliseconds kMaxPause{1000};

  bool in_episode_ = false;
  std::size_t failures_ = 0;  // in this episode
  std::size_t closed_ = 0;    // idle connections closed in this episode
  Clock::time_point first_failure_{};
  Clock::time_point last_failure_{};
  std::size_t consecutive_ = 0;  // failures since the last accept that worked
  std::chrono::milliseconds pause_{kFirstPause};
};

}  // namespace malachite::server
