// The throttle with the clock seam: every time is set by hand, so each admitted or refused
// entity below is exact.
#include "server/traffic/throttle.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "common/datetime.h"

namespace malachite::server {
namespace {

const DateTime kStart = *ParseIso8601("2026-11-21T05:21:46Z");
constexpr std::int64_t kMs = kTicksPerSecond / 1000;

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
  // The answer holds `limit` reports, not room for every tracked partition: the traffic history
  // keeps one a second.
  CHECK(throttle.Hottest(1).capacity() == 1);
}

TEST_CASE("throttle: Hottest picks the hottest partitions out of many, hottest first",
          "[throttle]") {
  ManualClock clock(kStart);
  auto config = Config(10, 10);
  config.throttle.enabled = false;
  Throttle throttle(config, clock);
  // Partition i gets (i * 37 % 200) + 1 entities: every rate from 1 to 200, in a scrambled order.
  for (int i = 0; i < 200; ++i) {
    const std::string key = "p" + std::to_string(i);
    REQUIRE(throttle.Admit(PartitionRef{"devstoreaccount1", "t", key},
                           static_cast<std::uint64_t>(i * 37 % 200 + 1)) ==
            ThrottleVerdict::kAdmitted);
  }
  auto rates = [&](std::size_t limit) {
    std::vector<int> out;
    for (const PartitionReport& r : throttle.Hottest(limit))
      out.push_back(static_cast<int>(r.peak));
    return out;
  };
  CHECK(rates(5) == std::vector<int>{200, 199, 198, 197, 196});
  const std::vector<int> all = rates(1000);
  REQUIRE(all.size() == 200);
  CHECK(std::is_sorted(all.rbegin(), all.rend()));
  CHECK(all.back() == 1);
  // Each report names its own partition: i * 37 % 200 + 1 == 200 for i = 27.
  CHECK(throttle.Hottest(1).front().partition_key == "p27");
  CHECK(throttle.Hottest(0).empty());
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

TEST_CASE("throttle: ForgetAccount forgets a deleted account's partitions, only its own",
          "[throttle]") {
  ManualClock clock(kStart);
  Throttle throttle(Config(2000, 100'000), clock);
  for (const char* account : {"gone", "gone2", "devstoreaccount1"}) {
    for (const char* key : {"a", "b"}) {
      CHECK(throttle.Admit(PartitionRef{account, "t", key}, 1) == ThrottleVerdict::kAdmitted);
    }
  }
  CHECK(throttle.tracked_partitions() == 6);
  throttle.ForgetAccount("gone");
  CHECK(throttle.tracked_partitions() == 4);
  std::vector<std::string> names;
  for (const PartitionReport& p : throttle.Hottest(10)) {
    names.push_back(p.account + "/" + p.partition_key);
  }
  std::sort(names.begin(), names.end());
  std::string listed;
  for (const std::string& name : names) listed += name + " ";
  CHECK(listed == "devstoreaccount1/a devstoreaccount1/b gone2/a gone2/b ");
}

}  // namespace malachite::server

namespace malachite::server {

TEST_CASE("throttle: ForgetTable forgets a deleted table's partitions, only its own",
          "[throttle]") {
  ManualClock clock(kStart);
  Throttle throttle(Config(2000, 100'000), clock);
  for (const char* table : {"Orders", "orders2", "Other"}) {
    for (const char* key : {"a", "b"}) {
      CHECK(throttle.Admit(PartitionRef{"devstoreaccount1", table, key}, 1) ==
            ThrottleVerdict::kAdmitted);
    }
  }
  CHECK(throttle.Admit(PartitionRef{"other", "orders", "a"}, 1) == ThrottleVerdict::kAdmitted);
  CHECK(throttle.tracked_partitions() == 7);
  throttle.ForgetTable("devstoreaccount1", "ORDERS");  // table names are case-insensitive
  std::vector<std::string> names;
  for (const PartitionReport& p : throttle.Hottest(10)) {
    names.push_back(p.account + "/" + p.table + "/" + p.partition_key);
  }
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"devstoreaccount1/orders2/a",
                                          "devstoreaccount1/orders2/b", "devstoreaccount1/other/a",
                                          "devstoreaccount1/other/b", "other/orders/a"});
}

}  // namespace malachite::server
