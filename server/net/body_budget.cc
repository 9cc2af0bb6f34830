#include "server/net/body_budget.h"

#include <malloc.h>

namespace malachite::server {
namespace {

// A burst worth returning: freed bodies beyond this stay in glibc's arenas otherwise (bodies
// above the mmap threshold are mmapped and unmapped on free, but glibc raises that threshold to
// the largest size freed, up to 32 MiB, so 4 MiB bodies soon come from the arenas).
constexpr std::uint64_t kTrimAfter = 32ull << 20;

}  // namespace

bool BodyBudget::TryCharge(std::uint64_t bytes) {
  std::uint64_t used = in_use_.load(std::memory_order_relaxed);
  for (;;) {
    const std::uint64_t next = used + bytes;
    if (limit_ != 0 && next > limit_ && used != 0) return false;
    if (in_use_.compare_exchange_weak(used, next, std::memory_order_relaxed)) {
      std::uint64_t peak = peak_.load(std::memory_order_relaxed);
      while (next > peak && !peak_.compare_exchange_weak(peak, next, std::memory_order_relaxed)) {
      }
      return true;
    }
  }
}

void BodyBudget::Release(std::uint64_t bytes) {
  in_use_.fetch_sub(bytes, std::memory_order_relaxed);
}

std::uint64_t BodyBudget::TakePeak() {
  return peak_.exchange(in_use_.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

bool ReturnFreedMemory(std::uint64_t peak, std::uint64_t in_use) {
  if (peak < kTrimAfter || in_use > peak / 4) return false;
  ::malloc_trim(0);
  return true;
}

}  // namespace malachite::server
