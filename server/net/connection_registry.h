// The open connections, so that the listener can stay under the open-file limit: when the count
// nears the limit (or accept fails with EMFILE), the connections that have waited longest for
// their next request are closed first. Registering and leaving take a mutex (once per
// connection); marking a connection busy or idle is one relaxed atomic store (once per request).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <mutex>

namespace malachite::server {

class ConnectionRegistry {
  struct Entry {
    // Steady-clock nanoseconds since the connection last finished a request (or opened); 0 while
    // it works on a request.
    std::atomic<std::int64_t> idle_since{0};
    // Asks the connection to close; called with the registry's mutex held, from any thread: it
    // must only post work to the connection's own executor.
    std::function<void()> close;
    bool closing = false;
  };

 public:
  // One connection's place in the registry, held by its session for the connection's lifetime.
  class Registration {
   public:
    Registration(ConnectionRegistry& registry, std::function<void()> close);
    ~Registration();
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;

    // The connection waits for (or is receiving the head of) its next request.
    void MarkIdle() { entry_->idle_since.store(Now(), std::memory_order_relaxed); }
    // The connection works on a request: not a candidate for closing.
    void MarkBusy() { entry_->idle_since.store(0, std::memory_order_relaxed); }

   private:
    ConnectionRegistry& registry_;
    std::list<Entry>::iterator entry_;
  };

  // `high_water`: the number of open connections above which Trim closes idle ones.
  explicit ConnectionRegistry(std::size_t high_water) : high_water_(high_water) {}

  std::size_t size() const { return count_.load(std::memory_order_relaxed); }
  std::size_t high_water() const { return high_water_; }

  // Asks up to `n` idle connections, longest idle first, to close; returns how many it asked.
  std::size_t CloseLongestIdle(std::size_t n);

  // When more than high_water() connections are open (not counting those already asked to
  // close), closes the longest-idle ones until high_water() minus a sixteenth of it remain (so
  // that the next accepts do not each pay a scan). Returns how many it asked to close.
  std::size_t Trim();

 private:
  std::size_t CloseLongestIdleLocked(std::size_t n);  // REQUIRES: mutex_ held

  static std::int64_t Now() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  const std::size_t high_water_;
  std::atomic<std::size_t> count_{0};
  std::mutex mutex_;
  std::list<Entry> entries_;  // guarded by mutex_
  std::size_t closing_ = 0;   // entries asked to close and not yet gone; guarded by mutex_
};

}  // namespace malachite::server
