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
#include "storage/map_gate.h"

namespace malachite::storage {

class ReadTxnPool {
 public:
  // `gate`: the map's gate (LmdbEnv::gate()), which every acquired transaction is inside.
  ReadTxnPool(MDB_env* env, MapGate& gate) : env_(env), gate_(gate) {}
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

 private:
  // Enough for the I/O threads and the occasional concurrent reader; a miss only costs a begin.
  // One per stripe of the gate: a thread's home place is its home stripe.
  static constexpr std::size_t kPlaces = MapGate::kStripes;
  MDB_env* const env_;
  MapGate& gate_;
  std::array<std::atomic<MDB_txn*>, kPlaces> kept_{};
};

}  // namespace malachite::storage
