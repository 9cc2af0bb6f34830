// The rate limiters and the throttle with the clock seam: every time is set by hand, so each
// admitted or refused entity below is exact.
#include "server/traffic/throttle.h"

#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include "common/datetime.h"
#include "server/traffic/rate_limiter.h"

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

ServerConfig Config(std::uint64_t partition_rate, std::uint64_t account_rate) {
  ServerConfig config;
  config.accounts.push_back({"devstoreaccount1", "", ""});
  config.throttle.partition_rate = partition_rate;
  config.throttle.account_rate = account_rate;
  return config;
}

std::string Verdicts(Throttle& throttle, const PartitionRef& ref, int times,
                     std::uint64_t entities = 1) {
  std::string out;
  for (int i = 0; i < times; ++i) {
    if (!out.empty()) out += " ";
    out += std::string(ThrottleVerdictName(throttle.Admit(ref, entities)));
  }
  return out;
}

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

TEST_CASE(
    "throttle: a partition over its rate is refused and the refusal costs the account "
    "nothing",
    "[throttle]") {
  ManualClock clock(kStart);
  auto config = Config(10, 15);
  Throttle throttle(config, clock);
  const PartitionRef a{"devstoreaccount1", "Orders", "a"};
  const PartitionRef b{"devstoreaccount1", "orders", "b"};
  CHECK(Verdicts(throttle, a, 12) ==
        "admitted admitted admitted admitted admitted admitted admitted admitted admitted "
        "admitted partition partition");
  // The account holds 15: 10 went to `a`, its refused requests were refunded.
  CHECK(Verdicts(throttle, b, 6) == "admitted admitted admitted admitted admitted account");
  // Table names are case-insensitive: "Orders" and "orders" are one partition.
  CHECK(throttle.tracked_partitions() == 2);
  clock.Advance(kTicksPerSecond);
  CHECK(Verdicts(throttle, PartitionRef{"devstoreaccount1", "orders", std::nullopt}, 1, 15) ==
        "admitted");
}

TEST_CASE(
    "throttle: per-account overrides, and a query's scan charged afterwards refuses the "
    "next request",
    "[throttle]") {
  ManualClock clock(kStart);
  auto config = Config(2000, 20000);
  config.throttle.account_rates.push_back({"slow", 3});
  Throttle throttle(config, clock);
  CHECK(throttle.AccountRate("slow") == 3);
  CHECK(throttle.AccountRate("devstoreaccount1") == 20000);
  CHECK(Verdicts(throttle, PartitionRef{"slow", "t", std::nullopt}, 4) ==
        "admitted admitted admitted account");

  const PartitionRef p{"devstoreaccount1", "t", "p"};
  CHECK(Verdicts(throttle, p, 1) == "admitted");
  throttle.Charge(p, 2499);  // the query scanned 2,500
  CHECK(Verdicts(throttle, p, 1) == "partition");
  clock.Advance(250 * kMs + 5000);  // 500 entities paid, and 1 more: room for one
  CHECK(Verdicts(throttle, p, 2) == "admitted partition");
}

TEST_CASE("throttle: with throttling off everything passes and rates are still reported",
          "[throttle]") {
  ManualClock clock(kStart);
  auto config = Config(10, 10);
  config.throttle.enabled = false;
  Throttle throttle(config, clock);
  const PartitionRef hot{"devstoreaccount1", "t", "hot"};
  const PartitionRef warm{"devstoreaccount1", "t", "warm"};
  for (int i = 0; i < 50; ++i) CHECK(throttle.Admit(hot, 2) == ThrottleVerdict::kAdmitted);
  CHECK(throttle.Admit(warm, 7) == ThrottleVerdict::kAdmitted);
  throttle.Charge(PartitionRef{"devstoreaccount1", "t", std::nullopt}, 1000);  // account only
  std::string report;
  for (const PartitionReport& r : throttle.Hottest(10)) {
    report += r.account + "/" + r.table + "/" + r.partition_key +
              " rate=" + std::to_string(static_cast<int>(r.rate)) +
              " peak=" + std::to_string(r.peak) + " throttled=" + std::to_string(r.throttled) +
              "\n";
  }
  CHECK(report ==
        "devstoreaccount1/t/hot rate=100 peak=100 throttled=0\n"
        "devstoreaccount1/t/warm rate=7 peak=7 throttled=0\n");
  CHECK(throttle.Hottest(1).size() == 1);
}

TEST_CASE("throttle: the rebalancing emulation takes a partition kept over its target offline",
          "[throttle]") {
  ManualClock clock(kStart);
  auto config = Config(10, 1000);
  config.throttle.rebalance_after_seconds = 10;
  config.throttle.rebalance_offline_seconds = 3;
  Throttle throttle(config, clock);
  const PartitionRef p{"devstoreaccount1", "t", "p"};
  const PartitionRef other{"devstoreaccount1", "t", "q"};
  // 20 entities/s against a target of 10: half the requests are refused, for 10 seconds.
  std::string last;
  for (int tick = 0; tick <= 400; ++tick) {
    last = Verdicts(throttle, p, 1);
    if (throttle.rebalances() > 0) break;
    clock.Advance(50 * kMs);
  }
  CHECK(throttle.rebalances() == 1);
  CHECK(last == "partition");
  clock.Advance(2 * kTicksPerSecond);  // the bucket is full again, but the partition is away
  CHECK(Verdicts(throttle, p, 1) == "offline");
  CHECK(Verdicts(throttle, other, 1) == "admitted");
  bool reported_offline = false;
  for (const PartitionReport& r : throttle.Hottest(10)) {
    if (r.partition_key == "p") reported_offline = r.offline && r.throttled > 0;
  }
  CHECK(reported_offline);
  clock.Advance(1 * kTicksPerSecond + 1);
  CHECK(Verdicts(throttle, p, 1) == "admitted");
}

TEST_CASE("throttle: the partition table stays bounded and forgets idle partitions first",
          "[throttle]") {
  ManualClock clock(kStart);
  auto config = Config(2000, 100'000'000);
  config.throttle.max_tracked_partitions = 640;  // 10 per shard
  Throttle throttle(config, clock);
  // A hot partition, refused and in debt: it must survive the flood of one-off partitions.
  const PartitionRef hot{"devstoreaccount1", "t", "hot"};
  CHECK(throttle.Admit(hot, 2000) == ThrottleVerdict::kAdmitted);
  throttle.Charge(hot, 100'000);
  for (int i = 0; i < 20000; ++i) {
    const std::string key = "k" + std::to_string(i);
    CHECK(throttle.Admit(PartitionRef{"devstoreaccount1", "t", key}, 1) ==
          ThrottleVerdict::kAdmitted);
    clock.Advance(kMs);
  }
  CHECK(throttle.tracked_partitions() <= 640);
  CHECK(throttle.Admit(hot, 1) == ThrottleVerdict::kPartitionBusy);
}

}  // namespace malachite::server
