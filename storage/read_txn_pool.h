// Read transactions kept between requests, so that a snapshot costs LMDB's renew instead of a
// begin: no allocation, and no trip through the lock file's reader-table mutex, which every begin
// of an MDB_NOTLS environment takes to find a free reader slot. A reset transaction keeps its
// slot without holding a snapshot, so kept transactions never stop LMDB from reusing pages.
#pragma once

#include <lmdb.h>

#include <array>
#include <atomic>
#include <cstddef>

#include "common/error.h"

namespace malachite::storage {

class ReadTxnPool {
 public:
  explicit ReadTxnPool(MDB_env* env) : env_(env) {}
  // Aborts the kept transactions. REQUIRES: every Acquire'd transaction was Released.
  ~ReadTxnPool();
  ReadTxnPool(const ReadTxnPool&) = delete;
  ReadTxnPool& operator=(const ReadTxnPool&) = delete;

  // A read transaction on the newest committed snapshot: a kept one renewed, else a new one.
  // Errors: kInternalError (e.g. MDB_READERS_FULL).
  Result<MDB_txn*> Acquire();
  // Ends the snapshot of `txn` (from Acquire) and keeps the transaction for a later Acquire, or
  // aborts it when every place is taken. Any thread may release what another acquired.
  void Release(MDB_txn* txn) noexcept;

 private:
  // Enough for the I/O threads and the occasional concurrent reader; a miss only costs a begin.
  static constexpr std::size_t kPlaces = 16;
  MDB_env* const env_;
  std::array<std::atomic<MDB_txn*>, kPlaces> kept_{};
};

}  // namespace malachite::storage
