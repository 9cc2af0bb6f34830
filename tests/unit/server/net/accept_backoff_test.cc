// Failed accepts: the pause before the next one, and one log line when an episode starts and
// one when it is over, however many accepts fail in between.
#include "server/net/accept_backoff.h"

#include <catch2/catch.hpp>
#include <vector>

namespace malachite::server {
namespace {

using std::chrono::milliseconds;
using Clock = AcceptBackoff::Clock;

}  // namespace

TEST_CASE("accept_backoff: an episode logs its first failure and its end, nothing in between",
          "[limits]") {
  AcceptBackoff backoff;
  const Clock::time_point t0{};
  auto first = backoff.Failed("Too many open files", 16, t0);
  REQUIRE(first.log);
  CHECK(*first.log ==
        "accept failed: Too many open files; closed 16 idle connections, retrying with back-off");
  CHECK(first.pause == milliseconds(1));  // 16 descriptors are free: retry almost at once
  // Failures with successes between them, each within the gap: the same episode, no new line.
  for (int i = 1; i <= 5; ++i) {
    backoff.Succeeded();
    CHECK_FALSE(backoff.Failed("Too many open files", 16, t0 + milliseconds(3 * i)).log);
    CHECK_FALSE(backoff.Tick(t0 + milliseconds(3 * i + 500)));
  }
  // Quiet for the gap: the episode's closing line, once.
  CHECK_FALSE(backoff.Tick(t0 + milliseconds(15) + AcceptBackoff::kEpisodeGap - milliseconds(1)));
  auto over = backoff.Tick(t0 + milliseconds(15) + AcceptBackoff::kEpisodeGap);
  REQUIRE(over);
  CHECK(*over ==
        "accept failures over: 6 failed accepts in 15 ms; closed 96 idle connections in all");
  CHECK_FALSE(backoff.Tick(t0 + milliseconds(5000)));
  // The next failure starts a new episode with its own first line and counts.
  auto again = backoff.Failed("Too many open files", 0, t0 + milliseconds(6000));
  REQUIRE(again.log);
  CHECK(*again.log ==
        "accept failed: Too many open files; closed 0 idle connections, retrying with back-off");
  auto end = backoff.Tick(Clock::time_point::max());
  REQUIRE(end);
  CHECK(*end == "accept failures over: 1 failed accept in 0 ms; closed 0 idle connections in all");
}

TEST_CASE("accept_backoff: with nothing to close, the pause doubles from 10 ms to 1 s",
          "[limits]") {
  AcceptBackoff backoff;
  const Clock::time_point t0{};
  std::vector<long> pauses;
  for (int i = 0; i < 9; ++i) {
    pauses.push_back(backoff.Failed("Too many open files", 0, t0 + milliseconds(i)).pause.count());
  }
  CHECK(pauses == std::vector<long>{10, 20, 40, 80, 160, 320, 640, 1000, 1000});
  // An accept that works starts the doubling again.
  backoff.Succeeded();
  CHECK(backoff.Failed("Too many open files", 0, t0 + milliseconds(10)).pause == milliseconds(10));
  // Closed connections mean free descriptors: a 1 ms pause whatever the doubling says.
  CHECK(backoff.Failed("Too many open files", 3, t0 + milliseconds(11)).pause == milliseconds(1));
}

}  // namespace malachite::server
