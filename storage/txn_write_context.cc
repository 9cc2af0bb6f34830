#include "storage/txn_write_context.h"

#include "storage/entity_codec.h"
#include "storage/key_codec.h"

namespace malachite::storage {

TxnWriteContext::~TxnWriteContext() {
  if (catalog_changing_) core_.generation.EndChange();
}

Result<void> TxnWriteContext::CheckSpace() const {
  if (!space_alarm_) return {};
  // Emulator: after etcd's NOSPACE alarm. A write that adds data would eat the reserve that the
  // alarm gave back for deletes, so it is refused without being tried (storage/FORMAT.md).
  return Fail(ErrorCode::kInsufficientAccountResources,
              "The storage is full: only deletes are accepted until space is freed; nothing was "
              "written.",
              "space alarm: the data disk was found full; writes that add data are refused");
}

void TxnWriteContext::BeginCatalogChange() {
  if (catalog_changing_) return;
  catalog_changing_ = true;
  core_.generation.BeginChange();
}

Result<std::optional<TableInfo>> TxnWriteContext::FindTable(std::string_view account,
                                                            std::string_view name) {
  // The confirmed table answers a lookup by its exact name; any other spelling (table names are
  // case-insensitive) goes to the catalog.
  if (live_table_ && live_table_->name == name && live_table_->account == account) {
    return std::optional<TableInfo>(*live_table_);
  }
  auto found = core_.catalog.Find(txn_, account, name);
  if (found && *found) live_table_ = **found;
  return found;
}

Result<std::optional<TableInfo>> TxnWriteContext::CreateTable(std::string_view account,
                                                              std::string_view name) {
  if (auto ok = CheckSpace(); !ok) return tl::unexpected(ok.error());
  bytes_written_ += 64;
  live_table_.reset();
  BeginCatalogChange();
  return core_.catalog.Create(txn_, account, name);
}

Result<bool> TxnWriteContext::DeleteTable(std::string_view account, std::string_view name) {
  // O(1): the catalog entry goes and the id is queued; the reclaimer removes the entities later.
  live_table_.reset();
  BeginCatalogChange();
  auto id = core_.catalog.Delete(txn_, account, name);
  if (!id) return tl::unexpected<Error>(id.error());
  if (!*id) return false;
  // The table's stored access policies go with it (a new table of that name starts without).
  if (auto ok = core_.settings.Delete(txn_, TableAclKey(**id)); !ok)
    return tl::unexpected(ok.error());
  tables_deleted_ = true;
  bytes_written_ += 64;
  return true;
}

Result<std::optional<Entity>> TxnWriteContext::GetEntity(const TableInfo& table,
                                                         std::string_view pk, std::string_view rk) {
  key_buf_.clear();
  AppendEntityKey(&key_buf_, table.id, pk, rk);
  auto record = core_.entities.Get(txn_, key_buf_);
  if (!record) return tl::unexpected<Error>(record.error());
  if (!*record) return std::optional<Entity>();
  auto entity = DecodeEntity(pk, rk, **record);
  if (!entity) return tl::unexpected<Error>(entity.error());
  return std::optional<Entity>(std::move(*entity));
}

Result<void> TxnWriteContext::CheckLive(const TableInfo& table) {
  if (live_table_ && live_table_->id == table.id && live_table_->account == table.account &&
      live_table_->name == table.name) {
    return {};
  }
  auto live = core_.catalog.FindId(txn_, table.account, table.name, &key_buf_);
  if (!live) return tl::unexpected<Error>(live.error());
  if (*live != table.id) return Fail(ErrorCode::kTableNotFound);
  live_table_ = table;
  return {};
}

Result<void> TxnWriteContext::EncodeForWrite(const TableInfo& table, const Entity& entity) {
  if (auto ok = CheckSpace(); !ok) return ok;
  if (auto ok = CheckLive(table); !ok) return ok;
  key_buf_.clear();
  AppendEntityKey(&key_buf_, table.id, entity.partition_key, entity.row_key);
  record_buf_.clear();
  EncodeEntityRecord(entity, &record_buf_);
  return {};
}

Result<void> TxnWriteContext::PutEntity(const TableInfo& table, const Entity& entity) {
  if (auto ok = EncodeForWrite(table, entity); !ok) return ok;
  bytes_written_ += key_buf_.size() + record_buf_.size();
  return core_.entities.Put(txn_, key_buf_, record_buf_);
}

Result<bool> TxnWriteContext::InsertEntity(const TableInfo& table, Entity& entity) {
  // The record holds the Timestamp, so it is chosen before the write and handed out after it.
  const DateTime timestamp = timestamps_.Peek();
  entity.timestamp = timestamp;
  if (auto ok = EncodeForWrite(table, entity); !ok) return tl::unexpected(ok.error());
  auto inserted = core_.entities.Insert(txn_, key_buf_, record_buf_);
  if (!inserted || !*inserted) return inserted;
  timestamps_.Take(timestamp);
  bytes_written_ += key_buf_.size() + record_buf_.size();
  return true;
}

Result<bool> TxnWriteContext::DeleteEntity(const TableInfo& table, std::string_view pk,
                                           std::string_view rk) {
  key_buf_.clear();
  AppendEntityKey(&key_buf_, table.id, pk, rk);
  bytes_written_ += key_buf_.size();
  return core_.entities.Delete(txn_, key_buf_);
}

Result<void> TxnWriteContext::SetTableAcl(const TableInfo& table, std::string_view record) {
  if (auto ok = CheckSpace(); !ok) return ok;
  if (auto ok = CheckLive(table); !ok) return ok;
  bytes_written_ += 16 + record.size();
  BeginCatalogChange();  // a settings change: cached settings (StoreGeneration) go
  return core_.settings.Put(txn_, TableAclKey(table.id), record);
}

Result<std::optional<std::string>> TxnWriteContext::GetServiceProperties(std::string_view account) {
  return core_.settings.Get(txn_, ServicePropertiesKey(account));
}

Result<void> TxnWriteContext::SetServiceProperties(std::string_view account,
                                                   std::string_view record) {
  if (auto ok = CheckSpace(); !ok) return ok;
  bytes_written_ += account.size() + record.size();
  BeginCatalogChange();  // a settings change: cached settings (StoreGeneration) go
  return core_.settings.Put(txn_, ServicePropertiesKey(account), record);
}

// Azure: a storage account's service properties are part of it: a new account has the defaults,
// and deleting the account deletes them. So both remove any record under the name (one left by a
// Set Service Properties that raced the delete of an earlier account of the same name, too).
Result<void> TxnWriteContext::PutRuntimeAccount(std::string_view account, std::string_view record) {
  if (auto ok = CheckSpace(); !ok) return ok;
  BeginCatalogChange();
  if (auto ok = core_.settings.Delete(txn_, ServicePropertiesKey(account)); !ok) return ok;
  return core_.settings.Put(txn_, RuntimeAccountKey(account), record);
}

Result<void> TxnWriteContext::DeleteRuntimeAccount(std::string_view account) {
  BeginCatalogChange();
  if (auto ok = core_.settings.Delete(txn_, ServicePropertiesKey(account)); !ok) return ok;
  return core_.settings.Delete(txn_, RuntimeAccountKey(account));
}

}  // namespace malachite::storage
