// The single writer thread and its group commit (ARCHITECTURE.md rule 2): requests queue up; the
// writer takes up to max_batch of them, runs each in its own nested transaction of one write
// transaction, commits that once (one fsync for the whole group) and then reports every result.
// When the writer is idle and a commit costs no fsync, a caller may instead commit its one
// request on its own thread (TryWrite): no hand-off, no wake-up of the writer thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "common/function_ref.h"
#include "storage/lmdb_txn.h"
#include "storage/space_alarm.h"
#include "storage/store.h"
#include "storage/store_core.h"
#include "storage/timestamp_source.h"
#include "storage/txn_write_context.h"

namespace malachite::storage {

class GroupWriter {
 public:
  // `last_ticks`: the persisted timestamp bound (every Timestamp handed out before is at or
  // below it; the next ones are above). `on_tables_deleted` (may be empty) runs on the
  // committing thread after a successful commit in which some request deleted a table, before
  // that group's results are reported. `max_batch` 0 counts as 1. `allow_inline`: TryWrite may
  // commit on the caller's thread (only when a commit does not wait for an fsync).
  // `space_alarm` (may be null: no alarm) is raised by a commit that finds the disk full, and
  // while raised every group runs with TxnWriteContext::SetSpaceAlarm; it must outlive the writer.
  GroupWriter(const StoreCore& core, const Clock& clock, std::int64_t last_ticks,
              std::size_t max_batch, bool allow_inline, std::function<void()> on_tables_deleted,
              SpaceAlarm* space_alarm = nullptr);
  ~GroupWriter();  // Stop()
  GroupWriter(const GroupWriter&) = delete;
  GroupWriter& operator=(const GroupWriter&) = delete;

  // Queues `fn`; its WriteContext is a TxnWriteContext (internal callers such as the reclaimer
  // may downcast to reach the transaction). `done` runs exactly once on the writer thread (or,
  // after Stop, at once on the caller's thread with kInternalError "storage: the store is closed").
  void Submit(WriteFn fn, WriteDone done);
  // Runs and commits `fn` at once on the calling thread, as a group of its own, when inline
  // commits are allowed, no other group is being committed and nothing is queued; returns its
  // result (as Submit's `done` would get it). Otherwise returns nullopt and leaves `fn` as it was:
  // Submit it. Never blocks on another writer. The map is not grown here (a growth waits for
  // the readers to leave): a request that finds it full, with nothing committed, gets nullopt too,
  // and the writer thread grows the map for it. REQUIRES: the caller holds no LMDB transaction.
  std::optional<Result<void>> TryWrite(WriteFn& fn);
  // TryWrite for several requests at once (Store::TryWriteGroup): one commit, each request in
  // its own nested transaction; a result shorter than `fns` leaves the rest untouched.
  std::optional<std::vector<Result<void>>> TryWriteGroup(std::span<WriteFn> fns);
  // Runs `fn` while no group commits (holding the commit lock; queued requests wait), for what
  // replaces the environment (LmdbEnv::CompactInPlace). REQUIRES: the caller holds no LMDB
  // transaction and is not inside a WriteFn.
  void RunExclusive(FunctionRef<void()> fn);
  // Runs everything already queued, then joins the thread. Idempotent.
  void Stop();
  StoreStats Stats() const {
    return StoreStats{writes_.load(), commits_.load(), inline_commits_.load()};
  }

 private:
  struct Item {
    WriteFn fn;
    WriteDone done;
  };
  // How CommitGroup ended: kMapFull when LMDB found the map full and `may_grow` allowed growing
  // it instead of failing the request that needed the room (storage/FORMAT.md, "The map grows as
  // needed"). Then either nothing was applied and `results` is empty, or the requests before that
  // one were committed and `results` holds theirs: it and those after it were not (they run again
  // after the growth).
  enum class GroupEnd { kDone, kMapFull };
  void Run();
  // Runs `batch` in one write transaction and commits it; results[i] is what item i gets.
  // Items it did not get to (group too big) are not run: results is shorter than the batch.
  GroupEnd CommitGroup(std::vector<Item>& batch, std::vector<Result<void>>& results, bool may_grow);
  // CommitGroup on the writer thread: on kMapFull grows the map and runs again what nothing was
  // applied of, until it fits or the map cannot grow (then as without growth: the request that
  // finds the map full fails with kInsufficientAccountResources).
  void CommitGrowing(std::vector<Item>& batch, std::vector<Result<void>>& results);
  // Runs the batch's requests in `parent` (each in a nested transaction of it, unless the batch
  // is one request) into `results`; true when one found the map full and `may_grow`: then
  // `results` holds those before it (none for a batch of one), whose changes `parent` keeps.
  bool RunRequests(TxnWriteContext* ctx, MDB_txn* parent, std::vector<Item>& batch,
                   std::vector<Result<void>>& results, bool may_grow);
  // Moves the Timestamp bound if it must and commits `parent`, giving a failed commit's error to
  // every result that had succeeded. False (results cleared: nothing applied) when the commit found
  // the map full and `may_grow`.
  bool CommitRequests(const TxnWriteContext& ctx, LmdbTxn& parent,
                      std::vector<Result<void>>& results, bool may_grow);
  Result<void> RunNested(TxnWriteContext* ctx, MDB_txn* parent, Item* item);
  Result<void> RunFn(TxnWriteContext* ctx, Item* item);
  // A commit failed with a full disk: raises the space alarm and says so in `error`'s detail.
  void NoteDiskFull(Error* error);

  const StoreCore& core_;
  TimestampSource timestamps_;  // under commit_mu_
  // The bound in "meta" as last committed: at or above every Timestamp of a committed group
  // (under commit_mu_).
  std::int64_t persisted_bound_;
  const std::size_t max_batch_;
  const bool allow_inline_;
  std::function<void()> on_tables_deleted_;
  SpaceAlarm* const space_alarm_;

  // Held by whichever thread commits a group: the writer thread or a TryWrite caller. Taken
  // before mu_ when both are held.
  std::mutex commit_mu_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> queue_;
  bool stopping_ = false;
  std::thread thread_;

  std::atomic<std::uint64_t> writes_{0};
  std::atomic<std::uint64_t> commits_{0};
  std::atomic<std::uint64_t> inline_commits_{0};
};

}  // namespace malachite::storage
