// The memory budget for request bodies in flight (ServerConfig::body_memory_mb): every body is
// charged before its bytes are stored and released once its request has been processed, so
// that many clients sending large bodies at once cannot take the process's memory. Lock-free:
// one atomic counter, touched only by requests that have a body.
#pragma once

#include <atomic>
#include <cstdint>

namespace malachite::server {

class BodyBudget {
 public:
  // `limit_bytes` 0 means no limit.
  explicit BodyBudget(std::uint64_t limit_bytes) : limit_(limit_bytes) {}
  BodyBudget(const BodyBudget&) = delete;
  BodyBudget& operator=(const BodyBudget&) = delete;

  // Charges `bytes`; false (and nothing charged) when that would pass the limit. A single body
  // larger than the whole limit is charged when nothing else is, so that a budget smaller than
  // the largest allowed body still lets bodies through one at a time.
  bool TryCharge(std::uint64_t bytes);

  // Gives back `bytes` charged earlier.
  void Release(std::uint64_t bytes);

  std::uint64_t limit() const { return limit_; }
  std::uint64_t in_use() const { return in_use_.load(std::memory_order_relaxed); }

  // The most that was in use since the last call (then starts over from what is in use now).
  std::uint64_t TakePeak();

 private:
  const std::uint64_t limit_;
  std::atomic<std::uint64_t> in_use_{0};
  std::atomic<std::uint64_t> peak_{0};
};

// Gives freed heap memory back to the system (glibc's malloc_trim) when a burst of large bodies
// is over: `peak` bytes were in use since the last call and now only `in_use` are. Called from
// a timer, at most once a second, never on a request's path. Returns true when it trimmed.
bool ReturnFreedMemory(std::uint64_t peak, std::uint64_t in_use);

}  // namespace malachite::server
