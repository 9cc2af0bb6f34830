#include "server/net/body_budget.h"

#include "server/net/heap_trim.h"

namespace malachite::server {
namespace {

// A burst worth returning: freed bodies beyond this stay with the allocator otherwise (mimalloc
// keeps freed segments for reuse; glibc raises its mmap threshold to the largest size freed, up to
// 32 MiB, so 4 MiB bodies soon come from its arenas).
constexpr std::uint64_t kTrimAfter = 32ull << 20;

}  // namespace

// Why a reserve, and why whole bodies: 200 clients each uploading a 4 MiB body slowly
// held the whole budget, and 23 of 24 one-kilobyte inserts from another client got 503. Large
// bodies now stop at large_limit(), so the last eighth (32 MiB of the default 256: 512 bodies of
// 64 KiB at once) stays for small ones, which are most writes and pass through in microseconds.
//
// A large body is still charged its whole Content-Length before it is read, not in stages as its
// bytes arrive. Staged charges would let more slow uploads start, but they deadlock under load:
// a hundred fast 4 MiB uploads would each take a part of the budget, all wait for the rest, and
// all get 503 after the wait, where whole charges let the first ones finish and the next ones
// follow. Each connection's share is thereby bounded by the body limit (4 MiB and the $batch
// slack), and one that sits on its share without sending is ended by the request timeout
// (session.cc). Chunked bodies, whose size is not known in advance, are charged chunk by chunk
// without waiting, and count as large once they pass kSmallBody.
bool BodyBudget::TryCharge(std::uint64_t bytes, std::uint64_t body_size) {
  const std::uint64_t share = body_size <= kSmallBody ? limit_ : large_limit_;
  std::uint64_t used = in_use_.load(std::memory_order_relaxed);
  for (;;) {
    const std::uint64_t next = used + bytes;
    if (limit_ != 0 && next > share && used != 0) return false;
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
  TrimHeap();
  return true;
}

}  // namespace malachite::server
