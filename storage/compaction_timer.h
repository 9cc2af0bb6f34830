// The thread that compacts a serving store when it pays (StoreOptions::compact_while_serving):
// every check interval it asks whether a compaction pays and, when one does and the last
// attempt is at least the minimum interval ago, runs it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace malachite::storage {

class CompactionTimer {
 public:
  // Starts the thread. `pays` and `compact` run on it; `compact` is called only after `pays`
  // said true, never twice within `min_interval` (failed or not).
  CompactionTimer(std::chrono::milliseconds check_interval, std::chrono::milliseconds min_interval,
                  std::function<bool()> pays, std::function<void()> compact);
  ~CompactionTimer();  // Stop()
  CompactionTimer(const CompactionTimer&) = delete;
  CompactionTimer& operator=(const CompactionTimer&) = delete;

  // Waits for a compaction under way to end, then joins. Idempotent.
  void Stop();

 private:
  void Run();

  const std::chrono::milliseconds check_interval_;
  const std::chrono::milliseconds min_interval_;
  std::function<bool()> pays_;
  std::function<void()> compact_;
  std::optional<std::chrono::steady_clock::time_point> last_attempt_;  // the thread's own
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace malachite::storage
