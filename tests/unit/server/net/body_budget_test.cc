// The body memory budget as plain values: charges against the limit, from one thread and many,
// when freed memory goes back to the system, and its policy: large bodies stop short of the reserve
// that small ones keep, so a flood of large uploads cannot keep an ordinary write out.
#include "server/net/body_budget.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

namespace malachite::server {

TEST_CASE("body_budget: charges up to the limit, one body larger than it passes alone",
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
namespace {

constexpr std::uint64_t kMiB = 1 << 20;
constexpr std::uint64_t kLargeBody = 4 * kMiB + 64 * 1024;  // the largest $batch body

}  // namespace

TEST_CASE("body_budget: large bodies stop at the limit less the reserve, small ones may use it",
          "[limits]") {
  BodyBudget budget(8 * kMiB);
  CHECK(budget.large_limit() == 7 * kMiB);
  std::string taken;
  for (std::uint64_t body : {4 * kMiB, 4 * kMiB, 3 * kMiB, kMiB, BodyBudget::kSmallBody + 1}) {
    taken += budget.TryCharge(body) ? "+" : "-";
  }
  int small = 0;
  while (budget.TryCharge(BodyBudget::kSmallBody)) ++small;
  CHECK(taken == "+-+--");
  CHECK(small == 16);  // the 1 MiB reserve, in 64 KiB bodies
  CHECK(budget.in_use() == 8 * kMiB);
}

TEST_CASE("body_budget: a chunked body counts as large once its chunks pass the small size",
          "[limits]") {
  BodyBudget budget(1 * kMiB);  // large bodies: 896 KiB
  REQUIRE(budget.TryCharge(800 * 1024));
  CHECK(budget.TryCharge(60 * 1024, 60 * 1024));         // small so far
  CHECK_FALSE(budget.TryCharge(60 * 1024, 120 * 1024));  // large now: 920 KiB > 896 KiB
  CHECK(budget.in_use() == 860 * 1024);
}

TEST_CASE(
    "body_budget: one body larger than the large share passes when nothing else is in "
    "flight",
    "[limits]") {
  BodyBudget budget(1 * kMiB);
  CHECK(budget.TryCharge(kLargeBody));
  CHECK_FALSE(budget.TryCharge(kLargeBody));
  CHECK_FALSE(budget.TryCharge(1024));
  budget.Release(kLargeBody);
  CHECK(budget.TryCharge(1024));
}

TEST_CASE(
    "body_budget: with the default 256 MiB, 200 large uploads leave room for every small "
    "insert",
    "[limits]") {
  BodyBudget budget(256 * kMiB);
  int large = 0;
  for (int i = 0; i < 200; ++i) large += budget.TryCharge(kLargeBody) ? 1 : 0;
  int small = 0;
  for (int i = 0; i < 1000; ++i) small += budget.TryCharge(1024) ? 1 : 0;
  CHECK(large == 55);  // 224 MiB / 4.06 MiB
  CHECK(small == 1000);
  CHECK(budget.in_use() <= budget.limit());
  CHECK(budget.limit() - budget.in_use() >= 32 * kMiB - 1000 * 1024);
}

}  // namespace malachite::server
