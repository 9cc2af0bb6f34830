#include "storage/group_writer.h"

#include <exception>

#include "storage/lmdb_txn.h"
#include "storage/store_meta.h"

namespace malachite::storage {
namespace {

// LMDB: a write transaction's dirty pages are bounded (MDB_TXN_FULL, ~512 MiB with 4 KiB pages).
// A group stops taking requests once it wrote this much; the rest wait for the next commit.
constexpr std::size_t kMaxGroupBytes = 64u << 20;

}  // namespace

GroupWriter::GroupWriter(const StoreCore& core, const Clock& clock, std::int64_t last_ticks,
                         std::size_t max_batch, std::function<void()> on_tables_deleted)
    : core_(core),
      timestamps_(clock, last_ticks),
      max_batch_(max_batch == 0 ? 1 : max_batch),
      on_tables_deleted_(std::move(on_tables_deleted)) {
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
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping and drained
    while (!queue_.empty() && batch.size() < max_batch_) {
      batch.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    lock.unlock();
    RunGroup(&batch);
    batch.clear();
    lock.lock();
  }
}

Result<void> GroupWriter::RunOne(TxnWriteContext* ctx, MDB_txn* parent, Item* item) {
  // Each request gets its own nested transaction: its failure rolls back only its changes.
  auto nested = LmdbTxn::Begin(core_.env->get(), parent, 0);
  if (!nested) return tl::unexpected<Error>(nested.error());
  ctx->Reset(nested->get());
  Result<void> result;
  try {
    result = item->fn(*ctx);
  } catch (const std::exception& e) {
    result = Fail(ErrorCode::kInternalError, std::string("storage: write failed: ") + e.what());
  }
  ctx->Reset(nullptr);
  if (!result) return result;  // `nested` aborts on destruction
  return nested->Commit();
}

void GroupWriter::RunGroup(std::vector<Item>* batch) {
  auto parent = LmdbTxn::Begin(core_.env->get(), nullptr, 0);
  if (!parent) {
    for (Item& item : *batch) item.done(tl::unexpected<Error>(parent.error()));
    return;
  }
  std::vector<Result<void>> results;
  results.reserve(batch->size());
  TxnWriteContext ctx(core_, timestamps_);
  for (Item& item : *batch) {
    results.push_back(RunOne(&ctx, parent->get(), &item));
    if (ctx.bytes_written() >= kMaxGroupBytes) break;
  }
  // Requests beyond a too-big group go back to the front of the queue, in order.
  if (results.size() < batch->size()) {
    std::lock_guard<std::mutex> lock(mu_);
    for (std::size_t i = batch->size(); i-- > results.size();) {
      queue_.push_front(std::move((*batch)[i]));
    }
    batch->resize(results.size());
  }
  Result<void> commit = WriteMetaU64(parent->get(), core_.env->dbs().meta, kMetaLastTimestamp,
                                     static_cast<std::uint64_t>(timestamps_.last_ticks()));
  if (commit) commit = parent->Commit();  // one fsync for the whole group
  writes_.fetch_add(batch->size());
  if (commit) {
    commits_.fetch_add(1);
    if (ctx.tables_deleted() && on_tables_deleted_) on_tables_deleted_();
  }
  for (std::size_t i = 0; i < batch->size(); ++i) {
    // A failed commit applied nothing: every request that had succeeded gets its error; one
    // that failed on its own keeps its own error.
    (*batch)[i].done(results[i] && !commit ? commit : std::move(results[i]));
  }
}

}  // namespace malachite::storage
