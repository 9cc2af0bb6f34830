// Move-only LMDB transaction and cursor handles (after lmdbxx): the destructor aborts, Commit()
// forgets the handle before mdb_txn_commit because LMDB frees the transaction even on failure.
//
// LMDB: a write transaction belongs to the thread that began it; read transactions may move
// between threads because the environment is opened with MDB_NOTLS, but never concurrently.
#pragma once

#include <lmdb.h>

#include <optional>
#include <string_view>

#include "common/error.h"

namespace malachite::storage {

inline MDB_val ToVal(std::string_view s) { return MDB_val{s.size(), const_cast<char*>(s.data())}; }
inline std::string_view FromVal(const MDB_val& v) {
  return std::string_view(static_cast<const char*>(v.mv_data), v.mv_size);
}

// Point operations on a transaction handle, for the typed databases (which take MDB_txn*). `what`
// names the operation in error messages, e.g. "get entity". Errors: LmdbError's
// (kInsufficientAccountResources for a full map or disk, else kInternalError).
//
// The value under `key`, or nullopt. The view points into the map and lives until the next write
// in `txn` or its end.
Result<std::optional<std::string_view>> LmdbGet(MDB_txn* txn, MDB_dbi dbi, std::string_view key,
                                                std::string_view what);
// Stores `value` under `key`, replacing any value.
Result<void> LmdbPut(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::string_view value,
                     std::string_view what);
// Stores `value` under `key` unless the key is present (MDB_NOOVERWRITE: one search for both
// the check and the write); false when it was, and then nothing is written.
Result<bool> LmdbInsert(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::string_view value,
                        std::string_view what);
// Removes `key`; false when it was absent.
Result<bool> LmdbDel(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::string_view what);

class LmdbTxn {
 public:
  // Begins a transaction; `parent` (may be null) makes it a nested write transaction.
  // Errors: kInternalError (e.g. MDB_READERS_FULL), kInsufficientAccountResources.
  static Result<LmdbTxn> Begin(MDB_env* env, MDB_txn* parent, unsigned flags);

  LmdbTxn() = default;
  LmdbTxn(LmdbTxn&& other) noexcept : txn_(other.txn_) { other.txn_ = nullptr; }
  LmdbTxn& operator=(LmdbTxn&& other) noexcept;
  LmdbTxn(const LmdbTxn&) = delete;
  LmdbTxn& operator=(const LmdbTxn&) = delete;
  ~LmdbTxn() { Abort(); }

  // Commits and forgets the handle (also on failure: nothing was applied then). `lmdb_rc`, when
  // given, gets mdb_txn_commit's return code (0 on success), for callers that tell causes apart.
  Result<void> Commit(int* lmdb_rc = nullptr);
  // Aborts if still open. Idempotent.
  void Abort();

  MDB_txn* get() const { return txn_; }

  // LmdbGet/LmdbPut/LmdbDel on this transaction.
  Result<std::optional<std::string_view>> Get(MDB_dbi dbi, std::string_view key) const {
    return LmdbGet(txn_, dbi, key, "get");
  }
  Result<void> Put(MDB_dbi dbi, std::string_view key, std::string_view value) {
    return LmdbPut(txn_, dbi, key, value, "put");
  }
  Result<bool> Del(MDB_dbi dbi, std::string_view key) { return LmdbDel(txn_, dbi, key, "delete"); }

 private:
  explicit LmdbTxn(MDB_txn* txn) : txn_(txn) {}
  MDB_txn* txn_ = nullptr;
};

// A cursor, closed when destroyed. REQUIRES: destroyed before its write transaction ends (a read
// transaction's cursor may outlive it, but ours never do).
class LmdbCursor {
 public:
  static Result<LmdbCursor> Open(MDB_txn* txn, MDB_dbi dbi);

  LmdbCursor(LmdbCursor&& other) noexcept : cursor_(other.cursor_) { other.cursor_ = nullptr; }
  LmdbCursor& operator=(LmdbCursor&&) = delete;
  LmdbCursor(const LmdbCursor&) = delete;
  LmdbCursor& operator=(const LmdbCursor&) = delete;
  ~LmdbCursor() {
    if (cursor_ != nullptr) mdb_cursor_close(cursor_);
  }

  // Positions with `op` (MDB_SET_RANGE uses *key as input). True when positioned, false at the
  // end (MDB_NOTFOUND); *key and *value then view the record.
  // Inline: scans call it once per entity.
  Result<bool> Get(MDB_cursor_op op, MDB_val* key, MDB_val* value) {
    const int rc = mdb_cursor_get(cursor_, key, value, op);
    if (rc == 0) return true;
    return NotPositioned(rc);
  }
  // Deletes the record under the cursor.
  Result<void> Del();

 private:
  explicit LmdbCursor(MDB_cursor* cursor) : cursor_(cursor) {}
  // Get's answer for a non-zero return code: false for MDB_NOTFOUND, else the error.
  static Result<bool> NotPositioned(int rc);
  MDB_cursor* cursor_ = nullptr;
};

}  // namespace malachite::storage
