#include "server/net/accept_backoff.h"

#include <fmt/format.h>

#include <algorithm>

namespace malachite::server {

// Why episodes and not single failures: at the open-file limit every accept may fail, succeed
// once 16 idle connections are closed, and fail again a millisecond later. One line per failure
// (or per failure after a success) floods the log exactly when an operator reads it; one line
// when the trouble starts and one when it is over say everything.
AcceptBackoff::Step AcceptBackoff::Failed(const std::string& why, std::size_t closed,
                                          Clock::time_point now) {
  std::optional<std::string> log;
  if (!in_episode_) {
    in_episode_ = true;
    failures_ = 0;
    closed_ = 0;
    first_failure_ = now;
    log = fmt::format("accept failed: {}; closed {} idle connections, retrying with back-off", why,
                      closed);
  }
  ++failures_;
  closed_ += closed;
  last_failure_ = now;
  // The pending connection keeps the acceptor readable: retrying at once would spin.
  pause_ = consecutive_++ == 0 ? kFirstPause : std::min(pause_ * 2, kMaxPause);
  return Step{closed > 0 ? std::chrono::milliseconds(1) : pause_, std::move(log)};
}

void AcceptBackoff::Succeeded() { consecutive_ = 0; }

std::optional<std::string> AcceptBackoff::Tick(Clock::time_point now) {
  if (!in_episode_ || now - last_failure_ < kEpisodeGap) return std::nullopt;
  in_episode_ = false;
  const auto lasted =
      std::chrono::duration_cast<std::chrono::milliseconds>(last_failure_ - first_failure_);
  return fmt::format(
      "accept failures over: {} failed accept{} in {} ms; closed {} idle connections in all",
      failures_, failures_ == 1 ? "" : "s", lasted.count(), closed_);
}

}  // namespace malachite::server
