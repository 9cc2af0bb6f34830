// The background flush of an environment opened with MDB_NOSYNC or MDB_NOMETASYNC
// (common/durability.h): a thread that fsyncs the data file every interval in which something was
// committed, and once more when stopped, so a host crash loses at most one interval of writes.
#pragma once

#include <lmdb.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "common/error.h"
#include "common/function_ref.h"
#include "storage/lmdb_env.h"

namespace malachite::storage {

class EnvFlusher {
 public:
  // Starts the thread. `env` must outlive the flusher (Stop before mdb_env_close). `on_error`
  // (may be empty) runs on the flusher's thread when a sync fails; the next interval retries.
  EnvFlusher(const LmdbEnv& env, std::chrono::milliseconds interval,
             std::function<void(const Error&)> on_error);
  ~EnvFlusher();  // Stop()
  EnvFlusher(const EnvFlusher&) = delete;
  EnvFlusher& operator=(const EnvFlusher&) = delete;

  // Syncs whatever was committed and not yet synced, then joins the thread. Call it after the
  // last commit (the writer is stopped). Idempotent.
  void Stop();
  // Syncs performed (tests: a clean close syncs).
  std::uint64_t syncs() const;
  // Runs `fn` between two syncs (none runs meanwhile), for what replaces the environment with a
  // file already synced (LmdbEnv::CompactInPlace): what is on disk then needs no sync.
  void RunBetweenSyncs(FunctionRef<void()> fn);

 private:
  void Run();
  // Syncs when the last committed transaction is newer than the last synced one.
  void SyncIfDirty();
  // The last committed transaction, or nullopt when the map is gone.
  std::optional<std::uint64_t> LastTxnid() const;

  const LmdbEnv& env_;
  const std::chrono::milliseconds interval_;
  std::function<void(const Error&)> on_error_;
  // Held by a sync and by RunBetweenSyncs; before mu_ when both are held.
  std::mutex sync_mu_;
  std::uint64_t synced_txnid_ = 0;  // under sync_mu_

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::uint64_t syncs_ = 0;
  std::thread thread_;
};

}  // namespace malachite::storage
