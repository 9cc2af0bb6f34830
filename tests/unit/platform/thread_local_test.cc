// thread_local objects are intact when their destructors run (on Windows this needs
// platform/windows/thread_exit_order.cc: without it some destructors read freed memory).
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <thread>
#include <vector>

namespace {

std::atomic<int> intact{0}, damaged{0};

struct Marked {
  std::uint64_t a = 0x1111111111111111, b = 0x2222222222222222, c = 0x3333333333333333;
  ~Marked() {
    const bool same = a == 0x1111111111111111 && b == 0x2222222222222222 && c == 0x3333333333333333;
    (same ? intact : damaged).fetch_add(1);
  }
};

}  // namespace

TEST_CASE("thread_local destructors run on intact objects when threads end", "[platform]") {
  constexpr int kRounds = 200, kThreads = 4;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
      threads.emplace_back([] {
        thread_local Marked marked;
        volatile std::uint64_t touch = marked.a;  // constructs it on this thread
        (void)touch;
        std::vector<char> churn(100);  // heap traffic that would reuse a freed TLS block
      });
    }
    for (std::thread& t : threads) t.join();
  }
  CHECK(damaged.load() == 0);
  CHECK(intact.load() == kRounds * kThreads);
}
