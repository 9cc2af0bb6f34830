// The WriteContext a WriteFn gets: the catalog and entity operations inside one nested
// transaction of the current group commit.
#pragma once

#include <lmdb.h>

#include <cstddef>
#include <optional>
#include <string>

#include "storage/store.h"
#include "storage/store_core.h"
#include "storage/timestamp_source.h"

namespace malachite::storage {

class TxnWriteContext final : public WriteContext {
 public:
  TxnWriteContext(const StoreCore& core, TimestampSource& timestamps)
      : core_(core), timestamps_(timestamps) {}
  // Ends the catalog change CreateTable, DeleteTable or a settings write began (core().generation).
  // REQUIRES: the group's transaction has committed or aborted, or will never commit.
  ~TxnWriteContext() override;
  TxnWriteContext(const TxnWriteContext&) = delete;
  TxnWriteContext& operator=(const TxnWriteContext&) = delete;

  // Points the context at `txn`, forgetting the table confirmed so far.
  void Reset(MDB_txn* txn) {
    txn_ = txn;
    live_table_.reset();
  }
  // Points the context at the nested transaction of the group's next request, keeping the table
  // confirmed so far: the requests before it committed into the same parent, and none of them
  // changed the catalog (a catalog change forgets it). REQUIRES: ForgetTables after a request
  // whose nested transaction is aborted (it may have created the table it then confirmed).
  void Continue(MDB_txn* txn) { txn_ = txn; }
  void ForgetTables() { live_table_.reset(); }
  // While set (the space alarm is raised, space_alarm.h), the writes that add data (PutEntity,
  // InsertEntity, CreateTable, SetTableAcl, SetServiceProperties, PutRuntimeAccount) fail with
  // kInsufficientAccountResources before touching LMDB; reads and deletes go on.
  void SetSpaceAlarm(bool raised) { space_alarm_ = raised; }
  MDB_txn* txn() const { return txn_; }
  const StoreCore& core() const { return core_; }
  // True once any request of the group deleted a table (the reclaimer must be woken).
  bool tables_deleted() const { return tables_deleted_; }
  // Approximate bytes written by the group so far (the writer closes big groups early).
  std::size_t bytes_written() const { return bytes_written_; }

  DateTime NextTimestamp() override { return timestamps_.Next(); }
  Result<std::optional<TableInfo>> FindTable(std::string_view account,
                                             std::string_view name) override;
  Result<std::optional<TableInfo>> CreateTable(std::string_view account,
                                               std::string_view name) override;
  Result<bool> DeleteTable(std::string_view account, std::string_view name) override;
  Result<std::optional<Entity>> GetEntity(const TableInfo& table, std::string_view pk,
                                          std::string_view rk) override;
  // Errors: kTableNotFound when `table` was deleted since it was looked up (nothing is written:
  // entities under a dead id would never be reclaimed).
  Result<void> PutEntity(const TableInfo& table, const Entity& entity) override;
  // Errors: as PutEntity.
  Result<bool> InsertEntity(const TableInfo& table, Entity& entity) override;
  Result<bool> DeleteEntity(const TableInfo& table, std::string_view pk,
                            std::string_view rk) override;
  Result<void> SetTableAcl(const TableInfo& table, std::string_view record) override;
  Result<std::optional<std::string>> GetServiceProperties(std::string_view account) override;
  Result<void> SetServiceProperties(std::string_view account, std::string_view record) override;
  Result<void> PutRuntimeAccount(std::string_view account, std::string_view record) override;
  Result<void> DeleteRuntimeAccount(std::string_view account) override;

 private:
  // Checks that `table` is still the live table of its name and encodes the entity's key and
  // record into key_buf_ and record_buf_. Errors: kTableNotFound, storage errors.
  Result<void> EncodeForWrite(const TableInfo& table, const Entity& entity);
  // Errors: kTableNotFound when `table` is not the live table of its name, storage errors.
  Result<void> CheckLive(const TableInfo& table);
  // Success, or the error of a write refused by the space alarm.
  Result<void> CheckSpace() const;
  // Before any catalog or settings change of this context: read views stop sharing tables found,
  // and caches of settings stop trusting what they read (StoreGeneration), until the group's
  // transaction ends.
  void BeginCatalogChange();

  const StoreCore& core_;
  TimestampSource& timestamps_;
  MDB_txn* txn_ = nullptr;
  bool tables_deleted_ = false;
  bool space_alarm_ = false;
  bool catalog_changing_ = false;  // BeginChange called; EndChange when the context ends
  std::size_t bytes_written_ = 0;
  std::string key_buf_;  // reused: no allocation per operation once warm
  std::string record_buf_;
  // The table FindTable or CheckLive last confirmed in this transaction (and, through Continue,
  // in the group's earlier requests); forgotten by Reset, ForgetTables and any catalog change.
  // A group of writes to one table looks it up once.
  std::optional<TableInfo> live_table_;
};

}  // namespace malachite::storage
