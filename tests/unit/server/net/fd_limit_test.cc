// The open-file limit: raised at startup, and the connection high-water mark below it.
#include "server/net/fd_limit.h"

#include <sys/resource.h>

#include <catch2/catch.hpp>

namespace malachite::server {

TEST_CASE("fd_limit: the soft limit is raised to the hard limit, the high-water mark leaves room",
          "[limits]") {
  const OpenFileLimit limit = RaiseOpenFileLimit();
  rlimit now{};
  REQUIRE(::getrlimit(RLIMIT_NOFILE, &now) == 0);
  CHECK(now.rlim_cur == limit.now);
  if (now.rlim_max != RLIM_INFINITY) CHECK(now.rlim_cur == now.rlim_max);
  CHECK(limit.now >= limit.before);
  CHECK(ConnectionHighWater(256) == 192);
  CHECK(ConnectionHighWater(1024) == 864);
  CHECK(ConnectionHighWater(1u << 20) == (1u << 20) - 32 - (1u << 17));
  CHECK(ConnectionHighWater(40) == 1);
}

}  // namespace malachite::server
