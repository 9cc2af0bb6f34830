// The body memory budget as plain values: charges against the limit, from one thread and many,
// and when freed memory goes back to the system.
#include "server/net/body_budget.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

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
}  // namespace malachite::server
