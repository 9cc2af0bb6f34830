// The "entities" database: entity records under encoded keys, with long keys expanded from their
// overflow buckets (overflow_bucket.h) so callers only ever see whole encoded keys.
#pragma once

#include <lmdb.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.h"
#include "common/function_ref.h"
#include "storage/key_codec.h"

namespace malachite::storage {

// Every method can fail with LmdbError's codes (kInsufficientAccountResources for a full map or
// disk on writes, kInternalError otherwise) and with kInternalError for a malformed overflow
// bucket.
class EntityDb {
 public:
  explicit EntityDb(MDB_dbi dbi) : dbi_(dbi) {}

  // The record under the encoded `key`, or nullopt. The view lives until the next write in
  // `txn` or its end.
  Result<std::optional<std::string_view>> Get(MDB_txn* txn, std::string_view key) const;
  // Inserts or replaces.
  Result<void> Put(MDB_txn* txn, std::string_view key, std::string_view record) const;
  // Inserts unless a record is stored under `key`; false (nothing written) when one is.
  Result<bool> Insert(MDB_txn* txn, std::string_view key, std::string_view record) const;
  // False when absent.
  Result<bool> Delete(MDB_txn* txn, std::string_view key) const;

  // Visits every (encoded key, record) with range.start <= key < range.stop in key order until
  // `visit` returns false. Both views live until `visit` returns.
  using Visitor = FunctionRef<bool(std::string_view key, std::string_view record)>;
  Result<void> Scan(MDB_txn* txn, const EncodedRange& range, Visitor visit) const;

  // Deletes up to `max_records` LMDB records (entities or whole buckets) whose key starts with
  // `prefix`. Returns how many were deleted: fewer than max_records means none is left.
  Result<std::size_t> DeletePrefix(MDB_txn* txn, std::string_view prefix,
                                   std::size_t max_records) const;

 private:
  MDB_dbi dbi_;
};

}  // namespace malachite::storage
