#include "storage/entity_db.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "storage/lmdb_txn.h"
#include "storage/overflow_bucket.h"

namespace malachite::storage {
namespace {

tl::unexpected<Error> Corrupt(std::string_view key) {
  return Fail(ErrorCode::kInternalError,
              "storage: malformed overflow bucket at " + DumpEntityKey(key));
}

// key >= bound, byte-wise (as LMDB orders keys), eight bytes per step: a scan tests each key
// against its stop bound, and std::string_view's comparison would call memcmp for it.
bool AtOrAfter(std::string_view key, std::string_view bound) {
  const std::size_t common = std::min(key.size(), bound.size());
  std::size_t i = 0;
  for (; i + 8 <= common; i += 8) {
    std::uint64_t a;
    std::uint64_t b;
    std::memcpy(&a, key.data() + i, 8);
    std::memcpy(&b, bound.data() + i, 8);
    if (a != b) {
      if constexpr (std::endian::native == std::endian::little) {
        a = __builtin_bswap64(a);
        b = __builtin_bswap64(b);
      }
      return a > b;
    }
  }
  for (; i < common; ++i) {
    if (key[i] != bound[i]) {
      return static_cast<unsigned char>(key[i]) > static_cast<unsigned char>(bound[i]);
    }
  }
  return key.size() >= bound.size();
}

}  // namespace

Result<std::optional<std::string_view>> EntityDb::Get(MDB_txn* txn, std::string_view key) const {
  auto value = LmdbGet(txn, dbi_, key.substr(0, kBucketKeyBytes), "get entity");
  if (!value || !*value || !IsLongKey(key)) return value;
  return FindInBucket(**value, key.substr(kBucketKeyBytes));
}

Result<void> EntityDb::Put(MDB_txn* txn, std::string_view key, std::string_view record) const {
  if (!IsLongKey(key)) return LmdbPut(txn, dbi_, key, record, "put entity");
  std::string_view bucket_key = key.substr(0, kBucketKeyBytes);
  auto old = LmdbGet(txn, dbi_, bucket_key, "get entity");
  if (!old) return tl::unexpected<Error>(old.error());
  std::vector<BucketEntry> entries;
  if (*old && !ParseBucket(**old, &entries)) return Corrupt(key);
  UpsertBucketEntry(&entries, BucketEntry{key.substr(kBucketKeyBytes), record});
  // The entries view the old bucket in the map: encode before writing over it.
  std::string bucket = EncodeBucket(entries);
  return LmdbPut(txn, dbi_, bucket_key, bucket, "put entity");
}

Result<bool> EntityDb::Insert(MDB_txn* txn, std::string_view key, std::string_view record) const {
  if (!IsLongKey(key)) return LmdbInsert(txn, dbi_, key, record, "insert entity");
  // A long key shares its LMDB record with its bucket: look inside before writing.
  auto old = Get(txn, key);
  if (!old) return tl::unexpected<Error>(old.error());
  if (*old) return false;
  if (auto ok = Put(txn, key, record); !ok) return tl::unexpected<Error>(ok.error());
  return true;
}

Result<bool> EntityDb::Delete(MDB_txn* txn, std::string_view key) const {
  std::string_view lmdb_key = key.substr(0, kBucketKeyBytes);
  if (!IsLongKey(key)) return LmdbDel(txn, dbi_, lmdb_key, "delete entity");
  auto old = LmdbGet(txn, dbi_, lmdb_key, "get entity");
  if (!old) return tl::unexpected<Error>(old.error());
  if (!*old) return false;
  std::vector<BucketEntry> entries;
  if (!ParseBucket(**old, &entries)) return Corrupt(key);
  if (!EraseBucketEntry(&entries, key.substr(kBucketKeyBytes))) return false;
  // The bucket held this entry, so it is there to delete or rewrite.
  if (entries.empty()) return LmdbDel(txn, dbi_, lmdb_key, "delete entity");
  std::string bucket = EncodeBucket(entries);
  if (auto ok = LmdbPut(txn, dbi_, lmdb_key, bucket, "put entity"); !ok) {
    return tl::unexpected<Error>(ok.error());
  }
  return true;
}

Result<void> EntityDb::Scan(MDB_txn* txn, const EncodedRange& range, Visitor visit) const {
  std::string_view start = range.start, stop = range.stop;
  if (start >= stop) return {};
  auto cursor = LmdbCursor::Open(txn, dbi_);
  if (!cursor) return tl::unexpected<Error>(cursor.error());
  // A start longer than a bucket key may fall inside the bucket under its prefix: seek to that.
  MDB_val k = ToVal(start.substr(0, kBucketKeyBytes)), v{};
  std::vector<BucketEntry> entries;
  std::string full_key;
  // Keys come in increasing order: once one is >= start, every later one is too.
  bool past_start = false;
  for (auto found = cursor->Get(MDB_SET_RANGE, &k, &v);; found = cursor->Get(MDB_NEXT, &k, &v)) {
    if (!found) return tl::unexpected<Error>(found.error());
    if (!*found) return {};
    std::string_view key = FromVal(k);
    // Every key of a bucket >= stop is itself >= stop (see overflow_bucket.h).
    if (AtOrAfter(key, stop)) return {};
    if (!IsLongKey(key)) {
      past_start = past_start || AtOrAfter(key, start);
      if (past_start && !visit(key, FromVal(v))) return {};
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
