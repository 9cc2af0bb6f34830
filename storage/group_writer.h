// The single writer thread and its group commit (ARCHITECTURE.md rule 2): requests queue up; the
// writer takes up to max_batch of them, runs each in its own nested transaction of one write
// transaction, commits that once (one fsync for the whole group) and then reports every result.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "storage/store.h"
#include "storage/store_core.h"
#include "storage/timestamp_source.h"
#include "storage/txn_write_context.h"

namespace malachite::storage {

class GroupWriter {
 public:
  // `last_ticks`: the persisted last timestamp. `on_tables_deleted` (may be empty) runs on the
  // writer thread after a successful commit in which some request deleted a table, before that
  // group's done callbacks. `max_batch` 0 counts as 1.
  GroupWriter(const StoreCore& core, const Clock& clock, std::int64_t last_ticks,
              std::size_t max_batch, std::function<void()> on_tables_deleted);
  ~GroupWriter();  // Stop()
  GroupWriter(const GroupWriter&) = delete;
  GroupWriter& operator=(const GroupWriter&) = delete;

  // Queues `fn`; its WriteContext is a TxnWriteContext (internal callers such as the reclaimer
  // may downcast to reach the transaction). `done` runs exactly once on the writer thread (or,
  // after Stop, at once on the caller's thread with kInternalError "storage: the store is closed").
  void Submit(WriteFn fn, WriteDone done);
  // Runs everything already queued, then joins the thread. Idempotent.
  void Stop();
  StoreStats Stats() const { return StoreStats{writes_.load(), commits_.load()}; }

 private:
  struct Item {
    WriteFn fn;
    WriteDone done;
  };
  void Run();
  // Runs and commits `batch`; items it did not get to (group too big) go back to the queue.
  void RunGroup(std::vector<Item>* batch);
  Result<void> RunOne(TxnWriteContext* ctx, MDB_txn* parent, Item* item);

  const StoreCore& core_;
  TimestampSource timestamps_;
  const std::size_t max_batch_;
  std::function<void()> on_tables_deleted_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> queue_;
  bool stopping_ = false;
  std::thread thread_;

  std::atomic<std::uint64_t> writes_{0};
  std::atomic<std::uint64_t> commits_{0};
};

}  // namespace malachite::storage
