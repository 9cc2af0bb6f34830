#include "storage/read_txn_pool.h"

#include "storage/lmdb_error.h"

namespace malachite::storage {

ReadTxnPool::~ReadTxnPool() { AbortKept(); }

void ReadTxnPool::AbortKept() noexcept {
  for (std::atomic<MDB_txn*>& place : kept_) {
    if (MDB_txn* txn = place.exchange(nullptr, std::memory_order_acquire)) mdb_txn_abort(txn);
  }
}

Result<MDB_txn*> ReadTxnPool::Acquire() {
  // Threads spread over the places, so an I/O thread finds the transaction it released itself
  // and two threads rarely contend for one place.
  const std::size_t home = MapGate::HomeStripe();
  if (!gate_.Enter(home)) return tl::unexpected<Error>(gate_.broken_error());
  // The exchange hands a kept transaction to one thread (acquire: its reset is visible here).
  for (std::size_t i = 0; i < 2; ++i) {
    MDB_txn* txn = kept_[(home + i) % kPlaces].exchange(nullptr, std::memory_order_acquire);
    if (txn == nullptr) continue;
    // LMDB: MDB_NOTLS lets a reset read transaction be renewed on any thread.
    if (mdb_txn_renew(txn) == 0) return txn;
    mdb_txn_abort(txn);  // a renew that failed leaves it unusable: begin a fresh one below
    break;
  }
  MDB_txn* txn = nullptr;
  const int rc = mdb_txn_begin(env_.get(), nullptr, MDB_RDONLY, &txn);
  if (rc != 0) {
    gate_.Leave(home);
    return tl::unexpected<Error>(LmdbError(rc, "begin read transaction"));
  }
  return txn;
}

void ReadTxnPool::Release(MDB_txn* txn) noexcept {
  // LMDB: reset releases the snapshot (mr_txnid = -1) but, under MDB_NOTLS, keeps the reader slot;
  // a reset transaction holds no pointer into the map, so it may stay while the map is grown.
  // It is kept (or aborted) before the gate is left, so that once the gate is closed and empty
  // every transaction of the environment is in a place, where AbortKept finds it.
  mdb_txn_reset(txn);
  const std::size_t home = MapGate::HomeStripe();
  bool kept = false;
  for (std::size_t i = 0; i < 2 && !kept; ++i) {
    MDB_txn* empty = nullptr;
    kept =
        kept_[(home + i) % kPlaces].compare_exchange_strong(empty, txn, std::memory_order_release);
  }
  if (!kept) mdb_txn_abort(txn);
  gate_.Leave(home);
}

}  // namespace malachite::storage
