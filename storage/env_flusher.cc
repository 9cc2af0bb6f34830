#include "storage/env_flusher.h"

#include "storage/lmdb_error.h"

namespace malachite::storage {

EnvFlusher::EnvFlusher(const LmdbEnv& env, std::chrono::milliseconds interval,
                       std::function<void(const Error&)> on_error)
    : env_(env), interval_(interval), on_error_(std::move(on_error)) {
  // What is on disk at open needs no sync.
  synced_txnid_ = LastTxnid().value_or(0);
  thread_ = std::thread([this] { Run(); });
}

EnvFlusher::~EnvFlusher() { Stop(); }

void EnvFlusher::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  cv_.notify_one();
  if (thread_.joinable()) thread_.join();
  SyncIfDirty();  // the final flush of a clean shutdown
}

std::uint64_t EnvFlusher::syncs() const {
  std::lock_guard<std::mutex> lock(mu_);
  return syncs_;
}

void EnvFlusher::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (cv_.wait_for(lock, interval_, [this] { return stopping_; })) return;
    lock.unlock();
    SyncIfDirty();
    lock.lock();
  }
}

void EnvFlusher::RunBetweenSyncs(FunctionRef<void()> fn) {
  std::lock_guard<std::mutex> sync(sync_mu_);
  fn();
  // A replaced environment numbers its commits anew: what it holds now is what was synced.
  synced_txnid_ = LastTxnid().value_or(0);
}

std::optional<std::uint64_t> EnvFlusher::LastTxnid() const {
  // LMDB: mdb_env_info reads the meta pages in the map, which a growth unmaps; the sync does
  // not read the map (without MDB_WRITEMAP it is an fdatasync of the file), so only this
  // passes the gate. A map that is gone has nothing more to sync.
  MapGate::Pass pass(env_.gate());
  MDB_envinfo info{};
  if (!pass || mdb_env_info(env_.get(), &info) != 0) return std::nullopt;
  return info.me_last_txnid;
}

void EnvFlusher::SyncIfDirty() {
  // LMDB: mdb_env_info reads the newest meta page without a lock; a commit racing with it is
  // simply synced next time. mdb_env_sync (force) fdatasyncs the data file, which holds the
  // meta pages too, and may run while the writer commits. sync_mu_ keeps a compaction from
  // closing the environment under the sync.
  std::lock_guard<std::mutex> sync(sync_mu_);
  const auto last = LastTxnid();
  if (!last || *last == synced_txnid_) return;
  if (int rc = mdb_env_sync(env_.get(), 1); rc != 0) {
    if (on_error_) on_error_(LmdbError(rc, "background sync"));
    return;
  }
  synced_txnid_ = *last;
  std::lock_guard<std::mutex> lock(mu_);
  ++syncs_;
}

}  // namespace malachite::storage
