// The connection layer's limits as plain values: the body memory budget, the registry that
// closes the longest-idle connections first, and the open-file limit.
#include <sys/resource.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "server/net/body_budget.h"
#include "server/net/connection_registry.h"
#include "server/net/fd_limit.h"

namespace malachite::server {

TEST_CASE("body_budget: charges up to the limit; one body larger than it passes alone",
          "[limits]") {
  BodyBudget budget(10);
  CHECK(budget.TryCharge(6));
  CHECK_FALSE(budget.TryCharge(5));
  CHECK(budget.TryCharge(4));
  CHECK(budget.in_use() == 10);
  budget.Release(10);
  CHECK(budget.TryCharge(25));  // nothing else in flight
  CHECK_FALSE(budget.TryCharge(1));
  budget.Release(25);
  CHECK(budget.TakePeak() == 25);
  CHECK(budget.TakePeak() == 0);
  BodyBudget unlimited(0);
  CHECK(unlimited.TryCharge(std::uint64_t{1} << 40));
}

TEST_CASE("body_budget: concurrent charges never pass the limit", "[limits]") {
  BodyBudget budget(1000);
  std::atomic<std::uint64_t> overshoot{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20000; ++i) {
        if (budget.TryCharge(300)) {
          if (budget.in_use() > 1000) overshoot.fetch_add(1);
          budget.Release(300);
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(overshoot.load() == 0);
  CHECK(budget.in_use() == 0);
  CHECK(budget.TakePeak() <= 900);
}

TEST_CASE("body_budget: freed memory is returned only after a burst is over", "[limits]") {
  CHECK_FALSE(ReturnFreedMemory(1 << 20, 0));              // too small to matter
  CHECK_FALSE(ReturnFreedMemory(256u << 20, 200u << 20));  // still in use
  CHECK(ReturnFreedMemory(256u << 20, 4u << 20));
}

TEST_CASE("connection_registry: the longest-idle connections are closed first, never busy ones",
          "[limits]") {
  ConnectionRegistry registry(100);
  std::vector<std::string> closed;
  std::vector<std::unique_ptr<ConnectionRegistry::Registration>> connections;
  for (int i = 0; i < 5; ++i) {
    connections.push_back(std::make_unique<ConnectionRegistry::Registration>(
        registry, [&closed, i] { closed.push_back("c" + std::to_string(i)); }));
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  CHECK(registry.size() == 5);
  connections[0]->MarkBusy();  // working on a request
  connections[1]->MarkIdle();  // finished one just now: idle the shortest
  CHECK(registry.CloseLongestIdle(2) == 2);
  CHECK(closed == std::vector<std::string>{"c2", "c3"});
  // Already asked to close: not asked again.
  CHECK(registry.CloseLongestIdle(5) == 2);
  CHECK(closed == std::vector<std::string>{"c2", "c3", "c4", "c1"});
  connections.clear();
  CHECK(registry.size() == 0);
}

TEST_CASE("connection_registry: Trim closes idle connections only past the high-water mark",
          "[limits]") {
  ConnectionRegistry registry(32);
  int closed = 0;
  std::vector<std::unique_ptr<ConnectionRegistry::Registration>> connections;
  for (int i = 0; i < 32; ++i) {
    connections.push_back(
        std::make_unique<ConnectionRegistry::Registration>(registry, [&closed] { ++closed; }));
  }
  CHECK(registry.Trim() == 0);
  connections.push_back(
      std::make_unique<ConnectionRegistry::Registration>(registry, [&closed] { ++closed; }));
  // 33 open, high water 32: down to 32 - 32/16 = 30.
  CHECK(registry.Trim() == 3);
  CHECK(closed == 3);
  // Those three are still open (closing): they do not count again.
  CHECK(registry.Trim() == 0);
}

TEST_CASE("fd_limit: the soft limit is raised to the hard limit; the high-water mark leaves room",
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
