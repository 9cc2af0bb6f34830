// The rate limiters with the clock seam: every time is set by hand, so each admitted or refused
// entity below is exact.
#include "server/traffic/rate_limiter.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include "common/datetime.h"

namespace malachite::server {
namespace {

const DateTime kStart = *ParseIso8601("2026-11-21T05:21:46Z");
constexpr std::int64_t kMs = kTicksPerSecond / 1000;

// "n ok" or "n refused" per attempt, so a test compares one string.
template <typename Bucket>
std::string Takes(Bucket& bucket, const RateLimit& limit, DateTime at,
                  std::vector<std::uint64_t> sizes) {
  std::string out;
  for (std::uint64_t n : sizes) {
    if (!out.empty()) out += ", ";
    out +=
        std::to_string(n) + (bucket.TryTake(limit, RateLimit::Units(at), n) ? " ok" : " refused");
  }
  return out;
}

DateTime After(std::int64_t ms) { return DateTime{kStart.ticks + ms * kMs}; }

}  // namespace

TEST_CASE("rate_limiter: a quiet bucket gives its burst at once, then one entity per interval",
          "[throttle]") {
  const RateLimit limit(2000, 1000);  // 2,000/s, burst 2,000: one entity per 0.5 ms
  CHECK(limit.burst() == 2000);
  Gcra bucket;
  CHECK(Takes(bucket, limit, After(0), {1000, 999, 1, 1}) == "1000 ok, 999 ok, 1 ok, 1 refused");
  CHECK(Takes(bucket, limit, After(0), {1}) == "1 refused");
  CHECK(Takes(bucket, limit, DateTime{After(0).ticks + 4999}, {1}) == "1 refused");
  CHECK(Takes(bucket, limit, DateTime{After(0).ticks + 5000}, {1, 1}) == "1 ok, 1 refused");
  // A full second later 2,000 more have come in.
  CHECK(Takes(bucket, limit, DateTime{After(1000).ticks + 5000}, {2000, 1}) ==
        "2000 ok, 1 refused");
}

TEST_CASE("rate_limiter: a request larger than the burst passes only from a full bucket",
          "[throttle]") {
  const RateLimit limit(100, 500);  // burst 50
  Gcra bucket;
  CHECK(Takes(bucket, limit, After(0), {100}) == "100 ok");
  // 100 entities take 1 s to pay off; the burst (0.5 s) is room again from 510 ms on.
  CHECK(Takes(bucket, limit, After(500), {1}) == "1 refused");
  CHECK(Takes(bucket, limit, After(990), {100, 49, 1}) == "100 refused, 49 ok, 1 refused");
}

TEST_CASE("rate_limiter: a charged scan puts the bucket in debt until time has paid it off",
          "[throttle]") {
  const RateLimit limit(2000, 1000);
  Gcra bucket;
  CHECK(Takes(bucket, limit, After(0), {1}) == "1 ok");
  bucket.Charge(limit, RateLimit::Units(After(0)), 4999);  // a query scanned 5,000
  CHECK(bucket.Debt(limit, RateLimit::Units(After(0))) == 3001);
  CHECK(Takes(bucket, limit, After(1500), {1}) == "1 refused");  // 3,000 paid, 1 to go
  CHECK(bucket.Debt(limit, RateLimit::Units(After(1500))) == 1);
  CHECK(Takes(bucket, limit, DateTime{After(1500).ticks + 5000}, {1, 1}) == "1 ok, 1 refused");
}

TEST_CASE("rate_limiter: the atomic bucket admits exactly its burst under concurrent takers",
          "[throttle]") {
  const RateLimit limit(20000, 1000);
  AtomicGcra bucket;
  std::atomic<int> admitted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) {
        if (bucket.TryTake(limit, RateLimit::Units(kStart), 1)) admitted.fetch_add(1);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(admitted.load() == 20000);
  bucket.Refund(limit, 10);
  CHECK(Takes(bucket, limit, kStart, {10, 1}) == "10 ok, 1 refused");
}

TEST_CASE("rate_limiter: the rate window slides over the last second and keeps the peak",
          "[throttle]") {
  RateWindow window;
  window.Add(After(0), 100);
  window.Add(After(500), 300);
  CHECK(window.Rate(After(500)) == 400.0);
  CHECK(window.Rate(After(1250)) == 300.0);  // three quarters of the last second's 400
  window.Add(After(1250), 10);
  CHECK(window.Rate(After(1250)) == 310.0);
  CHECK(window.Rate(After(3000)) == 0.0);
  CHECK(window.Peak() == 400);
  CHECK(window.total() == 410);
}

}  // namespace malachite::server
