// The body budget's policy as plain numbers (issue 31): large bodies stop short of the reserve
// that small ones keep, so a flood of large uploads cannot keep an ordinary write out.
#include "server/net/body_budget.h"

#include <catch2/catch.hpp>
#include <string>

namespace malachite::server {
namespace {

constexpr std::uint64_t kMiB = 1 << 20;
constexpr std::uint64_t kLargeBody = 4 * kMiB + 64 * 1024;  // the largest $batch body

}  // namespace

TEST_CASE("body_budget: large bodies stop at the limit less the reserve; small ones may use it",
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
