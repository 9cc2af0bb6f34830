// Read transactions kept between requests, so that a snapshot costs LMDB's renew instead of a
// begin: no allocation, and no trip through the lock file's reader-table mutex, which every begin
// of an MDB_NOTLS environment takes to find a free reader slot. A reset transaction keeps its
// slot without holding a snapshot, so kept transactions never stop LMDB from reusing pages, and
// never hold the map (MapGate): an acquired transaction is inside the map's gate until released.
#pragma once

#include <lmdb.h>

#include <array>
#include <atomic>
#include <cstddef>

#include "common/error.h"
#include "storage/lmdb_env.h"
#include "storage/map_gate.h"

namespace malachite::storage {

class ReadTxnPool {
 public:
  // Every acquired transaction is inside the environment's gate (LmdbEnv::gate()).
  explicit ReadTxnPool(const LmdbEnv& env) : env_(env), gate_(env.gate()) {}
  // Aborts the kept transactions. REQUIRES: every Acquire'd transaction was Released.
  ~ReadTxnPool();
  ReadTxnPool(const ReadTxnPool&) = delete;
  ReadTxnPool& operator=(const ReadTxnPool&) = delete;

  // A read transaction on the newest committed snapshot: a kept one renewed, else a new one.
  // Waits while the map is being grown. Errors: kInternalError (e.g. MDB_READERS_FULL, or the
  // map is gone: MapGate::broken_error).
  Result<MDB_txn*> Acquire();
  // Ends the snapshot of `txn` (from Acquire) and keeps the transaction for a later Acquire, or
  // aborts it when every place is taken. Any thread may release what another acquired.
  void Release(MDB_txn* txn) noexcept;
  // Aborts the kept transactions, before their environment closes (LmdbEnv::CompactInPlace's
  // `before_close`). REQUIRES: the gate is closed with nobody inside: then every transaction not
  // ended is kept (Release keeps it before it leaves the gate).
  void AbortKept() noexcept;

 private:
  // Enough for the I/O threads and the occasional concurrent reader; a miss only costs a begin.
  // One per stripe of the gate: a thread's home place is its home stripe.
  static constexpr std::size_t kPlaces = MapGate::kStripes;
  const LmdbEnv& env_;
  MapGate& gate_;
  std::array<std::atomic<MDB_txn*>, kPlaces> kept_{};
};

}  // namespace malachite::storage
