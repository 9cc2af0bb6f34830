#include "platform/process.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <csignal>

namespace malachite::platform {
namespace {

TEST_CASE("platform process: SIGINT and SIGTERM stop the server on every system", "[platform]") {
  const std::vector<int> signals = StopSignals();
  CHECK(std::count(signals.begin(), signals.end(), SIGINT) == 1);
  CHECK(std::count(signals.begin(), signals.end(), SIGTERM) == 1);
}

TEST_CASE("platform process: the open-file limit in force is at least the one before",
          "[platform]") {
  const OpenFileLimit limit = RaiseOpenFileLimit();
  CHECK(limit.now >= limit.before);
  CHECK(limit.now > 0);
  CHECK(limit.hard >= limit.now);
}

TEST_CASE("platform process: the process id is this process's, the same each time", "[platform]") {
  CHECK(CurrentProcessId() != 0);
  CHECK(CurrentProcessId() == CurrentProcessId());
}

}  // namespace
}  // namespace malachite::platform
