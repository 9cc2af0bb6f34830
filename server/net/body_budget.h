// The memory budget for request bodies in flight (ServerConfig::body_memory_mb): every body is
// charged before its bytes are stored and released once its request has been processed, so
// that many clients sending large bodies at once cannot take the process's memory. Lock-free:
// one atomic counter, touched only by requests that have a body.
//
// The budget is not first come, first served: a slice of it (kReserveShare) is kept for small
// bodies, so that uploads of large bodies, however many, cannot keep an ordinary write out.
#pragma once

#include <atomic>
#include <cstdint>

namespace malachite::server {

class BodyBudget {
 public:
  // A body of at most this many bytes is small: it may use the whole budget, the reserve too.
  static constexpr std::uint64_t kSmallBody = 64 * 1024;
  // The reserve for small bodies: limit() / kReserveShare.
  static constexpr std::uint64_t kReserveShare = 8;

  // `limit_bytes` 0 means no limit.
  explicit BodyBudget(std::uint64_t limit_bytes)
      : limit_(limit_bytes), large_limit_(limit_bytes - limit_bytes / kReserveShare) {}
  BodyBudget(const BodyBudget&) = delete;
  BodyBudget& operator=(const BodyBudget&) = delete;

  // Charges `bytes` of a body of `body_size` bytes (its Content-Length, or for a chunked body
  // what it has charged so far plus `bytes`); false (and nothing charged) when that would pass
  // the body's share: limit() for a small body (body_size <= kSmallBody), large_limit() for the
  // others. A body is charged when nothing else is, whatever its size, so that a budget smaller
  // than the largest allowed body still lets bodies through one at a time.
  bool TryCharge(std::uint64_t bytes, std::uint64_t body_size);
  // A whole body of `bytes`.
  bool TryCharge(std::uint64_t bytes) { return TryCharge(bytes, bytes); }

  // Gives back `bytes` charged earlier.
  void Release(std::uint64_t bytes);

  std::uint64_t limit() const { return limit_; }
  // What large bodies may hold together (with what small ones hold): the limit less the reserve.
  std::uint64_t large_limit() const { return large_limit_; }
  std::uint64_t in_use() const { return in_use_.load(std::memory_order_relaxed); }

  // The most that was in use since the last call (then starts over from what is in use now).
  std::uint64_t TakePeak();

 private:
  const std::uint64_t limit_;
  const std::uint64_t large_limit_;
  std::atomic<std::uint64_t> in_use_{0};
  std::atomic<std::uint64_t> peak_{0};
};

// Gives freed heap memory back to the system (TrimHeap) when a burst of large bodies
// is over: `peak` bytes were in use since the last call and now only `in_use` are. Called from
// a timer, at most once a second, never on a request's path. Returns true when it trimmed.
bool ReturnFreedMemory(std::uint64_t peak, std::uint64_t in_use);

}  // namespace malachite::server
