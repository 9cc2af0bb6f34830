#include "storage/group_writer.h"

#include <exception>
#include <string>

#include "storage/lmdb_error.h"
#include "storage/lmdb_txn.h"
#include "storage/store_meta.h"

namespace malachite::storage {
namespace {

// LMDB: a write transaction's dirty pages are bounded (MDB_TXN_FULL, ~512 MiB with 4 KiB pages).
// A group stops taking requests once it wrote this much; the rest wait for the next commit.
constexpr std::size_t kMaxGroupBytes = 64u << 20;

// How far ahead of the Timestamps it hands out the persisted bound is set when it must move. A
// group whose Timestamps stay under the bound writes no "meta" page: under steady writes the bound
// moves about ten times a second instead of with every commit, which saves a lone insert an LMDB
// put and a page write. Emulator: after a restart within this long of the last write, the first
// Timestamps lead the clock by up to this much (they must exceed the bound, not just the last one).
constexpr std::int64_t kTimestampLeaseTicks = 1'000'000;  // 100 ms

}  // namespace

void GroupWriter::NoteDiskFull(Error* error) {
  // LMDB needs fresh pages even to delete (it copies every page it changes, and the pages a
  // commit frees are reusable only two commits later), so on a full disk deletes fail too unless
  // something gives blocks back: the alarm's reserve.
  const std::uint64_t released = space_alarm_->Raise();
  if (released > 0) {
    error->detail += "; space alarm raised: " + std::to_string(released) +
                     " reserved bytes given back for deletes, writes that add data are refused";
  }
}

GroupWriter::GroupWriter(const StoreCore& core, const Clock& clock, std::int64_t last_ticks,
                         std::size_t max_batch, bool allow_inline,
                         std::function<void()> on_tables_deleted, SpaceAlarm* space_alarm)
    : core_(core),
      timestamps_(clock, last_ticks),
      persisted_bound_(last_ticks),
      max_batch_(max_batch == 0 ? 1 : max_batch),
      allow_inline_(allow_inline),
      on_tables_deleted_(std::move(on_tables_deleted)),
      space_alarm_(space_alarm) {
  thread_ = std::thread([this] { Run(); });
}

GroupWriter::~GroupWriter() { Stop(); }

void GroupWriter::Submit(WriteFn fn, WriteDone done) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!stopping_) {
      queue_.push_back(Item{std::move(fn), std::move(done)});
      cv_.notify_one();
      return;
    }
  }
  done(Fail(ErrorCode::kInternalError, "storage: the store is closed"));
}

std::optional<Result<void>> GroupWriter::TryWrite(WriteFn& fn) {
  auto results = TryWriteGroup(std::span<WriteFn>(&fn, 1));
  if (!results) return std::nullopt;
  return std::move(results->front());  // a group of one always runs its one request
}

std::optional<std::vector<Result<void>>> GroupWriter::TryWriteGroup(std::span<WriteFn> fns) {
  if (!allow_inline_ || fns.empty()) return std::nullopt;
  std::unique_lock<std::mutex> commit(commit_mu_, std::try_to_lock);
  if (!commit.owns_lock()) return std::nullopt;
  {
    // Queued requests were there first: the writer thread takes them (and these) in order.
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ || !queue_.empty()) return std::nullopt;
  }
  std::vector<Item> batch;
  batch.reserve(fns.size());
  for (WriteFn& fn : fns) batch.push_back(Item{std::move(fn), nullptr});
  std::vector<Result<void>> results;
  const std::uint64_t commits = commits_.load();  // only a commit_mu_ holder changes it
  const GroupEnd end = CommitGroup(batch, results, core_.env->can_grow());
  if (commits_.load() != commits) inline_commits_.fetch_add(1);
  // What the group had no room for goes back to the caller as it came.
  for (std::size_t i = results.size(); i < batch.size(); ++i) fns[i] = std::move(batch[i].fn);
  // The map is full and nothing was committed: the writer thread grows it (never an I/O thread:
  // a growth waits for the readers to leave the map).
  if (end == GroupEnd::kMapFull && results.empty()) return std::nullopt;
  return results;
}

void GroupWriter::RunExclusive(FunctionRef<void()> fn) {
  std::lock_guard<std::mutex> commit(commit_mu_);
  fn();
}

void GroupWriter::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    cv_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
}

void GroupWriter::Run() {
  std::vector<Item> batch;
  std::vector<Result<void>> results;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping and drained
    while (!queue_.empty() && batch.size() < max_batch_) {
      batch.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    lock.unlock();
    {
      std::lock_guard<std::mutex> commit(commit_mu_);
      CommitGrowing(batch, results);
      // Requests beyond a too-big group (or from the one that found the map full, which the map
      // was grown for) go back to the front of the queue, in order.
      if (results.size() < batch.size()) {
        std::lock_guard<std::mutex> requeue(mu_);
        for (std::size_t i = batch.size(); i-- > results.size();) {
          queue_.push_front(std::move(batch[i]));
        }
      }
    }
    for (std::size_t i = 0; i < results.size(); ++i) batch[i].done(std::move(results[i]));
    batch.clear();
    results.clear();
    lock.lock();
  }
}

Result<void> GroupWriter::RunFn(TxnWriteContext* ctx, Item* item) {
  try {
    return item->fn(*ctx);
  } catch (const std::exception& e) {
    return Fail(ErrorCode::kInternalError, std::string("storage: write failed: ") + e.what());
  }
}

Result<void> GroupWriter::RunNested(TxnWriteContext* ctx, MDB_txn* parent, Item* item) {
  // Each request of a group gets its own nested transaction: its failure rolls back only its
  // changes.
  auto nested = LmdbTxn::Begin(core_.env->get(), parent, 0);
  if (!nested) return tl::unexpected<Error>(nested.error());
  ctx->Continue(nested->get());
  Result<void> result = RunFn(ctx, item);
  ctx->Continue(nullptr);
  if (result) result = nested->Commit();
  // What this request confirmed may be what its rolled-back changes made (a table it created).
  if (!result) ctx->ForgetTables();
  return result;  // `nested`, uncommitted, aborts on destruction
}

void GroupWriter::CommitGrowing(std::vector<Item>& batch, std::vector<Result<void>>& results) {
  bool may_grow = core_.env->can_grow();
  for (;;) {
    results.clear();
    if (CommitGroup(batch, results, may_grow) == GroupEnd::kDone) return;
    // LMDB: the map may be resized only while no transaction is active: here, between two write
    // transactions, under commit_mu_ (no other writer can begin), with the readers kept out by
    // the gate. A growth that cannot happen (the maximum, a full disk where the map takes disk)
    // or failed runs the group once more without growth, which fails as a full map always did.
    auto grown = core_.env->GrowMap();
    may_grow = grown && *grown;
    if (!results.empty()) return;  // the rest go back to the queue and run in the grown map
  }
}

GroupWriter::GroupEnd GroupWriter::CommitGroup(std::vector<Item>& batch,
                                               std::vector<Result<void>>& results, bool may_grow) {
  results.reserve(batch.size());
  if (core_.env->gate().broken()) {
    results.assign(batch.size(), Result<void>(tl::unexpected(core_.env->gate().broken_error())));
    return GroupEnd::kDone;
  }
  // Checked before the transaction begins (it may read LMDB's free list in one of its own).
  const bool space_alarm = space_alarm_ != nullptr && space_alarm_->Check();
  auto parent = LmdbTxn::Begin(core_.env->get(), nullptr, 0);
  if (!parent) {
    results.assign(batch.size(), Result<void>(tl::unexpected<Error>(parent.error())));
    return GroupEnd::kDone;
  }
  // Ends after `parent` commits, or before it aborts: either way a catalog change it began is over.
  TxnWriteContext ctx(core_, timestamps_);
  ctx.SetSpaceAlarm(space_alarm);
  const bool map_full = RunRequests(&ctx, parent->get(), batch, results, may_grow);
  if (results.empty()) return GroupEnd::kMapFull;  // `parent` aborts on destruction
  if (batch.size() == 1 && !results.front()) {
    writes_.fetch_add(1);
    return GroupEnd::kDone;  // `parent` aborts on destruction
  }
  if (!CommitRequests(ctx, *parent, results, may_grow)) return GroupEnd::kMapFull;
  return map_full ? GroupEnd::kMapFull : GroupEnd::kDone;
}

bool GroupWriter::RunRequests(TxnWriteContext* ctx, MDB_txn* parent, std::vector<Item>& batch,
                              std::vector<Result<void>>& results, bool may_grow) {
  // LMDB found the map full since `before`: the request may have made any error of that, or
  // none, so the count of MDB_MAP_FULL translations on this thread tells (lmdb_error.h).
  auto map_full_since = [may_grow](std::uint64_t before) {
    return may_grow && MapFullErrorsOnThisThread() != before;
  };
  if (batch.size() == 1) {
    // A group of one needs no nested transaction: if it fails, the whole transaction aborts.
    const std::uint64_t before = MapFullErrorsOnThisThread();
    ctx->Reset(parent);
    results.push_back(RunFn(ctx, &batch.front()));
    ctx->Reset(nullptr);
    if (!map_full_since(before)) return false;
    results.clear();
    return true;
  }
  for (Item& item : batch) {
    const std::uint64_t before = MapFullErrorsOnThisThread();
    Result<void> result = RunNested(ctx, parent, &item);
    // Its nested transaction rolled back: it runs again once the map has grown, and the requests
    // before it commit now.
    if (map_full_since(before)) return true;
    results.push_back(std::move(result));
    if (ctx->bytes_written() >= kMaxGroupBytes) break;
  }
  return false;
}

bool GroupWriter::CommitRequests(const TxnWriteContext& ctx, LmdbTxn& parent,
                                 std::vector<Result<void>>& results, bool may_grow) {
  const std::uint64_t before = MapFullErrorsOnThisThread();
  // The bound moves in the same transaction as the Timestamps that passed it, so a committed
  // Timestamp is never above the committed bound.
  Result<void> commit;
  const std::int64_t issued = timestamps_.last_ticks();
  const std::int64_t bound =
      issued > persisted_bound_ ? issued + kTimestampLeaseTicks : persisted_bound_;
  if (bound != persisted_bound_) {
    commit = WriteMetaU64(parent.get(), core_.env->dbs().meta, kMetaLastTimestamp,
                          static_cast<std::uint64_t>(bound));
  }
  int commit_rc = 0;
  if (commit) commit = parent.Commit(&commit_rc);  // one commit (and at most one fsync) for all
  if (commit) {
    persisted_bound_ = bound;
    commits_.fetch_add(1);
    writes_.fetch_add(results.size());
    if (ctx.tables_deleted() && on_tables_deleted_) on_tables_deleted_();
    return true;
  }
  // LMDB may need fresh pages to commit too (the free list's own): nothing was applied, so the
  // whole group runs again in the grown map.
  if (may_grow && MapFullErrorsOnThisThread() != before) {
    results.clear();
    return false;
  }
  writes_.fetch_add(results.size());
  if (space_alarm_ != nullptr && IsDiskFull(commit_rc)) NoteDiskFull(&commit.error());
  // A failed commit applied nothing: every request that had succeeded gets its error; one that
  // failed on its own keeps its own error.
  for (Result<void>& result : results) {
    if (result) result = commit;
  }
  return true;
}

}  // namespace malachite::storage
