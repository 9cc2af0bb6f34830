// Background removal of the entities of deleted tables (storage/FORMAT.md, "reclaim").
// DeleteTable only moves the id to the "reclaim" database; this thread deletes the entities in
// chunks submitted through the group writer, so they interleave fairly with user writes, and
// drops the reclaim record when the table is empty. It resumes after a restart.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>

#include "storage/group_writer.h"
#include "storage/store_core.h"

namespace malachite::storage {

class Reclaimer {
 public:
  // Starts the thread, which first looks for work left by an earlier run.
  Reclaimer(const StoreCore& core, GroupWriter& writer, std::size_t chunk_records = 10'000);
  ~Reclaimer();  // Stop()
  Reclaimer(const Reclaimer&) = delete;
  Reclaimer& operator=(const Reclaimer&) = delete;

  // A table was deleted: look for work. Thread-safe; cheap.
  void Kick();
  // Blocks until no reclaim record is left (and no Kick is pending).
  void WaitIdle();
  // Stops after the current chunk and joins. REQUIRES: the writer still runs. Idempotent.
  void Stop();

 private:
  void Run();
  // Removes one chunk of the first queued table. Returns false when nothing is queued.
  Result<bool> Step();

  const StoreCore& core_;
  GroupWriter& writer_;
  const std::size_t chunk_records_;

  std::mutex mu_;
  std::condition_variable cv_;       // wakes the thread
  std::condition_variable idle_cv_;  // wakes WaitIdle
  bool kicked_ = true;
  bool idle_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace malachite::storage
