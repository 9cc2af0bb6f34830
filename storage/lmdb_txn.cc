#include "storage/lmdb_txn.h"

#include "storage/lmdb_error.h"

namespace malachite::storage {

Result<LmdbTxn> LmdbTxn::Begin(MDB_env* env, MDB_txn* parent, unsigned flags) {
  MDB_txn* txn = nullptr;
  int rc = mdb_txn_begin(env, parent, flags, &txn);
  if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, "begin transaction"));
  return LmdbTxn(txn);
}

LmdbTxn& LmdbTxn::operator=(LmdbTxn&& other) noexcept {
  if (this != &other) {
    Abort();
    txn_ = other.txn_;
    other.txn_ = nullptr;
  }
  return *this;
}

Result<void> LmdbTxn::Commit(int* lmdb_rc) {
  // LMDB: mdb_txn_commit frees the transaction whatever it returns; forget it first so the
  // destructor never aborts a freed handle.
  MDB_txn* txn = txn_;
  txn_ = nullptr;
  const int rc = mdb_txn_commit(txn);
  if (lmdb_rc != nullptr) *lmdb_rc = rc;
  return LmdbCheck(rc, "commit");
}

void LmdbTxn::Abort() {
  if (txn_ != nullptr) {
    mdb_txn_abort(txn_);
    txn_ = nullptr;
  }
}

Result<std::optional<std::string_view>> LmdbGet(MDB_txn* txn, MDB_dbi dbi, std::string_view key,
                                                std::string_view what) {
  MDB_val k = ToVal(key), v{};
  int rc = mdb_get(txn, dbi, &k, &v);
  if (rc == MDB_NOTFOUND) return std::optional<std::string_view>();
  if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, what));
  return std::optional<std::string_view>(FromVal(v));
}

Result<void> LmdbPut(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::string_view value,
                     std::string_view what) {
  MDB_val k = ToVal(key), v = ToVal(value);
  return LmdbCheck(mdb_put(txn, dbi, &k, &v, 0), what);
}

Result<bool> LmdbInsert(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::string_view value,
                        std::string_view what) {
  MDB_val k = ToVal(key), v = ToVal(value);
  // LMDB: MDB_KEYEXIST returns before the page is touched; the transaction stays usable.
  const int rc = mdb_put(txn, dbi, &k, &v, MDB_NOOVERWRITE);
  if (rc == MDB_KEYEXIST) return false;
  if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, what));
  return true;
}

Result<bool> LmdbDel(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::string_view what) {
  MDB_val k = ToVal(key);
  int rc = mdb_del(txn, dbi, &k, nullptr);
  if (rc == MDB_NOTFOUND) return false;
  if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, what));
  return true;
}

Result<LmdbCursor> LmdbCursor::Open(MDB_txn* txn, MDB_dbi dbi) {
  MDB_cursor* cursor = nullptr;
  int rc = mdb_cursor_open(txn, dbi, &cursor);
  if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, "open cursor"));
  return LmdbCursor(cursor);
}

Result<bool> LmdbCursor::NotPositioned(int rc) {
  if (rc == MDB_NOTFOUND) return false;
  if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, "cursor get"));
  return true;
}

Result<void> LmdbCursor::Del() { return LmdbCheck(mdb_cursor_del(cursor_, 0), "cursor delete"); }

}  // namespace malachite::storage
