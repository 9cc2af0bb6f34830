// limiter_bench: what throttling costs per request (it must cost nothing measurable on the hot
// path). Times, in-process and single-threaded unless said, the pieces the pipeline runs for
// every request with throttling on but under the limits: the account limiter alone, a full
// Throttle::Admit on one hot partition and spread over many, the same from two threads, and the
// whole gate (fault rules checked, throttle admitted, metrics recorded). The system clock is read
// per call, as in the server.
//
//   limiter_bench [--iterations 2000000]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "server/traffic/throttle.h"
#include "server/traffic/traffic_control.h"

namespace {

using namespace malachite;
using namespace malachite::server;
using SteadyClock = std::chrono::steady_clock;

ServerConfig UnderLimits() {
  ServerConfig config;
  config.accounts.push_back({"devstoreaccount1", "", ""});
  config.throttle.partition_rate = 100'000'000;  // on, but nothing is ever refused
  config.throttle.account_rate = 100'000'000;
  return config;
}

template <typename Fn>
double NanosPerOp(std::size_t iterations, Fn&& fn) {
  const auto start = SteadyClock::now();
  for (std::size_t i = 0; i < iterations; ++i) fn(i);
  return std::chrono::duration<double, std::nano>(SteadyClock::now() - start).count() /
         static_cast<double>(iterations);
}

void Report(std::string_view what, double ns) {
  std::printf("%-58s %8.1f ns/op\n", what.data(), ns);
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t iterations = 2'000'000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string_view(argv[i]) == "--iterations")
      iterations = std::strtoull(argv[i + 1], nullptr, 10);
  }
  const ServerConfig config = UnderLimits();
  const malachite::Clock& clock = SystemClock::Instance();
  std::vector<std::string> keys;
  for (int i = 0; i < 10000; ++i) keys.push_back("customer-" + std::to_string(i));

  Report("clock read (SystemClock::Now)", NanosPerOp(iterations, [&](std::size_t) {
           volatile auto t = clock.Now().ticks;
           (void)t;
         }));
  {
    const RateLimit limit(100'000'000, 1000);
    AtomicGcra bucket;
    Report("account limiter (AtomicGcra::TryTake)", NanosPerOp(iterations, [&](std::size_t) {
             bucket.TryTake(limit, RateLimit::Units(clock.Now()), 1);
           }));
  }
  {
    Throttle throttle(config, clock);
    const PartitionRef ref{"devstoreaccount1", "orders", std::string_view("hot")};
    Report("Throttle::Admit, one hot partition",
           NanosPerOp(iterations, [&](std::size_t) { throttle.Admit(ref, 1); }));
    Report("Throttle::Admit, 10,000 partitions round robin",
           NanosPerOp(iterations, [&](std::size_t i) {
             throttle.Admit(PartitionRef{"devstoreaccount1", "orders", keys[i % keys.size()]}, 1);
           }));
    Report("Throttle::Admit, account only (table operation)",
           NanosPerOp(iterations, [&](std::size_t) {
             throttle.Admit(PartitionRef{"devstoreaccount1", "orders", std::nullopt}, 1);
           }));
    // Two threads on distinct partitions: the shards keep them apart; the account is shared.
    const auto start = SteadyClock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&, t] {
        for (std::size_t i = 0; i < iterations; ++i) {
          throttle.Admit(
              PartitionRef{"devstoreaccount1", "orders", keys[(i * 2 + t) % keys.size()]}, 1);
        }
      });
    }
    for (auto& thread : threads) thread.join();
    Report("Throttle::Admit, 2 threads (wall time per op per thread)",
           std::chrono::duration<double, std::nano>(SteadyClock::now() - start).count() /
               static_cast<double>(iterations));
  }
  {
    TrafficControl traffic(config, clock);
    Route route;
    route.op = Operation::kUpdateEntity;
    route.account = "devstoreaccount1";
    route.table = "orders";
    route.partition_key = "hot";
    RequestCharge charge;
    Report("TrafficControl::Admit + Record (no fault rules)",
           NanosPerOp(iterations, [&](std::size_t) {
             traffic.Admit(route, &charge);
             traffic.Record(route.op, 204, std::chrono::microseconds(40));
           }));
  }
  return 0;
}
