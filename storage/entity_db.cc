#include "storage/entity_db.h"

#include <vector>

#include "storage/lmdb_error.h"
#include "storage/lmdb_txn.h"
#include "storage/overflow_bucket.h"

namespace malachite::storage {
namespace {

tl::unexpected<Error> Corrupt(std::string_view key) {
  return Fail(ErrorCode::kInternalError,
              "storage: malformed overflow bucket at " + DumpEntityKey(key));
}

// The bucket under `bucket_key` (empty view when absent).
Result<std::string_view> GetRaw(MDB_txn* txn, MDB_dbi dbi, std::string_view key) {
  MDB_val k = ToVal(key), v{};
  int rc = mdb_get(txn, dbi, &k, &v);
  if (rc == MDB_NOTFOUND) return std::string_view();
  if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, "get entity"));
  return FromVal(v);
}

Result<void> PutRaw(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::string_view value) {
  MDB_val k = ToVal(key), v = ToVal(value);
  return LmdbCheck(mdb_put(txn, dbi, &k, &v, 0), "put entity");
}

}  // namespace

Result<std::optional<std::string_view>> EntityDb::Get(MDB_txn* txn, std::string_view key) const {
  std::string_view lmdb_key = key.substr(0, kBucketKeyBytes);
  MDB_val k = ToVal(lmdb_key), v{};
  int rc = mdb_get(txn, dbi_, &k, &v);
  if (rc == MDB_NOTFOUND) return std::optional<std::string_view>();
  if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, "get entity"));
  if (!IsLongKey(key)) return std::optional<std::string_view>(FromVal(v));
  return FindInBucket(FromVal(v), key.substr(kBucketKeyBytes));
}

Result<void> EntityDb::Put(MDB_txn* txn, std::string_view key, std::string_view record) const {
  if (!IsLongKey(key)) return PutRaw(txn, dbi_, key, record);
  std::string_view bucket_key = key.substr(0, kBucketKeyBytes);
  auto old = GetRaw(txn, dbi_, bucket_key);
  if (!old) return tl::unexpected<Error>(old.error());
  std::vector<BucketEntry> entries;
  if (!old->empty() && !ParseBucket(*old, &entries)) return Corrupt(key);
  UpsertBucketEntry(&entries, BucketEntry{key.substr(kBucketKeyBytes), record});
  // The entries view the old bucket in the map: encode before writing over it.
  std::string bucket = EncodeBucket(entries);
  return PutRaw(txn, dbi_, bucket_key, bucket);
}

Result<bool> EntityDb::Delete(MDB_txn* txn, std::string_view key) const {
  std::string_view lmdb_key = key.substr(0, kBucketKeyBytes);
  if (!IsLongKey(key)) {
    MDB_val k = ToVal(lmdb_key);
    int rc = mdb_del(txn, dbi_, &k, nullptr);
    if (rc == MDB_NOTFOUND) return false;
    if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, "delete entity"));
    return true;
  }
  auto old = GetRaw(txn, dbi_, lmdb_key);
  if (!old) return tl::unexpected<Error>(old.error());
  if (old->empty()) return false;
  std::vector<BucketEntry> entries;
  if (!ParseBucket(*old, &entries)) return Corrupt(key);
  if (!EraseBucketEntry(&entries, key.substr(kBucketKeyBytes))) return false;
  if (entries.empty()) {
    MDB_val k = ToVal(lmdb_key);
    if (auto ok = LmdbCheck(mdb_del(txn, dbi_, &k, nullptr), "delete entity"); !ok) {
      return tl::unexpected<Error>(ok.error());
    }
    return true;
  }
  std::string bucket = EncodeBucket(entries);
  if (auto ok = PutRaw(txn, dbi_, lmdb_key, bucket); !ok) return tl::unexpected<Error>(ok.error());
  return true;
}

Result<void> EntityDb::Scan(MDB_txn* txn, const EncodedRange& range, const Visitor& visit) const {
  std::string_view start = range.start, stop = range.stop;
  if (start >= stop) return {};
  auto cursor = LmdbCursor::Open(txn, dbi_);
  if (!cursor) return tl::unexpected<Error>(cursor.error());
  // A start longer than a bucket key may fall inside the bucket under its prefix: seek to that.
  MDB_val k = ToVal(start.substr(0, kBucketKeyBytes)), v{};
  std::vector<BucketEntry> entries;
  std::string full_key;
  for (auto found = cursor->Get(MDB_SET_RANGE, &k, &v);; found = cursor->Get(MDB_NEXT, &k, &v)) {
    if (!found) return tl::unexpected<Error>(found.error());
    if (!*found) return {};
    std::string_view key = FromVal(k);
    // Every key of a bucket >= stop is itself >= stop (see overflow_bucket.h).
    if (key >= stop) return {};
    if (!IsLongKey(key)) {
      if (key >= start && !visit(key, FromVal(v))) return {};
      continue;
    }
    if (!ParseBucket(FromVal(v), &entries)) return Corrupt(key);
    for (const BucketEntry& e : entries) {
      full_key.assign(key);
      full_key.append(e.suffix);
      if (full_key < start) continue;
      if (full_key >= stop) return {};
      if (!visit(full_key, e.record)) return {};
    }
  }
}

Result<std::size_t> EntityDb::DeletePrefix(MDB_txn* txn, std::string_view prefix,
                                           std::size_t max_records) const {
  auto cursor = LmdbCursor::Open(txn, dbi_);
  if (!cursor) return tl::unexpected<Error>(cursor.error());
  std::size_t deleted = 0;
  while (deleted < max_records) {
    // Re-seek after each delete: simple and O(log n), and never depends on LMDB's cursor
    // position after mdb_cursor_del.
    MDB_val k = ToVal(prefix), v{};
    auto found = cursor->Get(MDB_SET_RANGE, &k, &v);
    if (!found) return tl::unexpected<Error>(found.error());
    if (!*found || !FromVal(k).starts_with(prefix)) break;
    if (auto ok = cursor->Del(); !ok) return tl::unexpected<Error>(ok.error());
    ++deleted;
  }
  return deleted;
}

}  // namespace malachite::storage
