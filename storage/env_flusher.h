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
#include <thread>

#include "common/error.h"
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

 private:
  void Run();
  // Syncs when the last committed transaction is newer than the last synced one.
  void SyncIfDirty();

  const LmdbEnv& env_;
  const std::chrono::milliseconds interval_;
  std::function<void(const Error&)> on_error_;
  std::uint64_t synced_txnid_ = 0;  // flusher thread (or Stop after the join) only

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::uint64_t syncs_ = 0;
  std::thread thread_;
};

}  // namespace malachite::storage
