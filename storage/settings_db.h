// The "settings" database: small records the server keeps per table and per account (a table's
// stored access policies, an account's service properties), opaque to storage
// (storage/FORMAT.md, "settings").
#pragma once

#include <lmdb.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.h"

namespace malachite::storage {

// `A` + table id (u64 BE): the table's ACL record. Keyed by id, so a new table of a deleted
// table's name never sees the old policies.
std::string TableAclKey(std::uint64_t table_id);
// `S` + account: the account's service properties record.
std::string ServicePropertiesKey(std::string_view account);
// `U` + account: an account made at run time (POST /-/accounts), its record opaque to storage.
std::string RuntimeAccountKey(std::string_view account);
inline constexpr char kRuntimeAccountPrefix = 'U';

class SettingsDb {
 public:
  explicit SettingsDb(MDB_dbi dbi) : dbi_(dbi) {}

  // A copy of the record under `key`, or nullopt. Errors: kInternalError.
  Result<std::optional<std::string>> Get(MDB_txn* txn, std::string_view key) const;
  // Stores `value` under `key` (replacing any). Errors: kInsufficientAccountResources,
  // kInternalError.
  Result<void> Put(MDB_txn* txn, std::string_view key, std::string_view value) const;
  // Removes the record under `key`; absent is not an error.
  Result<void> Delete(MDB_txn* txn, std::string_view key) const;
  // Calls `visit(key, value)` for every record whose key starts with `prefix`, in key order; the
  // views live until the next call. Errors: kInternalError.
  Result<void> Scan(MDB_txn* txn, std::string_view prefix,
                    const std::function<void(std::string_view, std::string_view)>& visit) const;

 private:
  MDB_dbi dbi_;
};

}  // namespace malachite::storage
