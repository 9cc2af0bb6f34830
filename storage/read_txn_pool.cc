#include "storage/read_txn_pool.h"

#include "storage/lmdb_error.h"

namespace malachite::storage {
namespace {

// Where a thread looks first: threads spread over the places, so an I/O thread finds the
// transaction it released itself and two threads rarely contend for one place.
std::size_t HomePlace(std::size_t places) {
  static std::atomic<std::size_t> next{0};
  thread_local const std::size_t home = next.fetch_add(1, std::memory_order_relaxed);
  return home % places;
}

}  // namespace

ReadTxnPool::~ReadTxnPool() {
  for (std::atomic<MDB_txn*>& place : kept_) {
    if (MDB_txn* txn = place.exchange(nullptr)) mdb_txn_abort(txn);
  }
}

Result<MDB_txn*> ReadTxnPool::Acquire() {
  // The exchange hands a kept transaction to one thread (acquire: its reset is visible here).
  const std::size_t home = HomePlace(kPlaces);
  for (std::size_t i = 0; i < 2; ++i) {
    MDB_txn* txn = kept_[(home + i) % kPlaces].exchange(nullptr, std::memory_order_acquire);
    if (txn == nullptr) continue;
    // LMDB: MDB_NOTLS lets a reset read transaction be renewed on any thread.
    if (mdb_txn_renew(txn) == 0) return txn;
    mdb_txn_abort(txn);  // a renew that failed leaves it unusable: begin a fresh one below
    break;
  }
  MDB_txn* txn = nullptr;
  const int rc = mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn);
  if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, "begin read transaction"));
  return txn;
}

void ReadTxnPool::Release(MDB_txn* txn) noexcept {
  // LMDB: reset releases the snapshot (mr_txnid = -1) but, under MDB_NOTLS, keeps the reader slot.
  mdb_txn_reset(txn);
  const std::size_t home = HomePlace(kPlaces);
  for (std::size_t i = 0; i < 2; ++i) {
    MDB_txn* empty = nullptr;
    if (kept_[(home + i) % kPlaces].compare_exchange_strong(empty, txn,
                                                            std::memory_order_release)) {
      return;
    }
  }
  mdb_txn_abort(txn);
}

}  // namespace malachite::storage
