// The "tables" and "reclaim" databases: the table catalog and the queue of deleted tables whose
// entities are still to be removed (storage/FORMAT.md).
#pragma once

#include <lmdb.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "common/error.h"
#include "storage/lmdb_env.h"
#include "storage/store.h"

namespace malachite::storage {

inline constexpr std::uint8_t kTableRecordVersion = 1;
inline constexpr std::uint8_t kReclaimRecordVersion = 1;

class TableCatalog {
 public:
  explicit TableCatalog(const Databases& dbs) : dbs_(dbs) {}

  // The table `name` (case-insensitive) of `account`, or nullopt.
  Result<std::optional<TableInfo>> Find(MDB_txn* txn, std::string_view account,
                                        std::string_view name) const;
  // The id of table `name` of `account`, or nullopt; `key_buf` is scratch space (reused by the
  // caller so the hot path does not allocate).
  Result<std::optional<std::uint64_t>> FindId(MDB_txn* txn, std::string_view account,
                                              std::string_view name, std::string* key_buf) const;
  // Creates the table with the next never-used id; nullopt when the name exists.
  Result<std::optional<TableInfo>> Create(MDB_txn* txn, std::string_view account,
                                          std::string_view name) const;
  // Removes the catalog entry and queues its id for reclamation, in `txn`. Returns the id, or
  // nullopt when there is no such table.
  Result<std::optional<std::uint64_t>> Delete(MDB_txn* txn, std::string_view account,
                                              std::string_view name) const;
  // Tables of `account` in lower-cased name order from `from_lower`; `visit` returns false to stop.
  Result<void> Scan(MDB_txn* txn, std::string_view account, std::string_view from_lower,
                    const std::function<bool(const TableInfo&)>& visit) const;

  // The lowest table id awaiting reclamation, or nullopt.
  Result<std::optional<std::uint64_t>> FirstReclaim(MDB_txn* txn) const;
  // Drops the reclaim record of `id` (its entities are all gone).
  Result<void> FinishReclaim(MDB_txn* txn, std::uint64_t id) const;

 private:
  Databases dbs_;
};

}  // namespace malachite::storage
