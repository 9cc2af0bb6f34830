#include "storage/table_catalog.h"

#include <string>

#include "storage/key_codec.h"
#include "storage/lmdb_txn.h"
#include "storage/store_meta.h"

namespace malachite::storage {
namespace {

constexpr std::uint64_t kFirstTableId = 1;

// Table record: version | id (u64 BE) | name as created.
std::string EncodeTableRecord(std::uint64_t id, std::string_view name) {
  std::string out(1, static_cast<char>(kTableRecordVersion));
  AppendU64BE(&out, id);
  out.append(name);
  return out;
}

Result<TableInfo> DecodeTableRecord(std::string_view account, std::string_view record) {
  if (record.size() < 9 || static_cast<std::uint8_t>(record[0]) != kTableRecordVersion) {
    return Fail(ErrorCode::kInternalError, "storage: malformed table record");
  }
  return TableInfo{std::string(account), std::string(record.substr(9)),
                   ReadU64BE(record.substr(1))};
}

}  // namespace

Result<std::optional<TableInfo>> TableCatalog::Find(MDB_txn* txn, std::string_view account,
                                                    std::string_view name) const {
  auto record = LmdbGet(txn, dbs_.tables, EncodeCatalogKey(account, name), "find table");
  if (!record) return tl::unexpected<Error>(record.error());
  if (!*record) return std::optional<TableInfo>();
  auto info = DecodeTableRecord(account, **record);
  if (!info) return tl::unexpected<Error>(info.error());
  return std::optional<TableInfo>(std::move(*info));
}

Result<std::optional<std::uint64_t>> TableCatalog::FindId(MDB_txn* txn, std::string_view account,
                                                          std::string_view name,
                                                          std::string* key_buf) const {
  key_buf->clear();
  AppendCatalogKey(key_buf, account, name);
  auto record = LmdbGet(txn, dbs_.tables, *key_buf, "find table");
  if (!record) return tl::unexpected<Error>(record.error());
  if (!*record) return std::optional<std::uint64_t>();
  if ((*record)->size() < 9) {
    return Fail(ErrorCode::kInternalError, "storage: malformed table record");
  }
  return std::optional<std::uint64_t>(ReadU64BE((*record)->substr(1)));
}

Result<std::optional<TableInfo>> TableCatalog::Create(MDB_txn* txn, std::string_view account,
                                                      std::string_view name) const {
  std::string key = EncodeCatalogKey(account, name);
  auto existing = LmdbGet(txn, dbs_.tables, key, "create table");
  if (!existing) return tl::unexpected<Error>(existing.error());
  if (*existing) return std::optional<TableInfo>();
  // Ids are never reused, so nothing of a deleted table can show through a new one.
  auto next = ReadMetaU64(txn, dbs_.meta, kMetaNextTableId);
  if (!next) return tl::unexpected<Error>(next.error());
  std::uint64_t id = next->value_or(kFirstTableId);
  if (auto ok = WriteMetaU64(txn, dbs_.meta, kMetaNextTableId, id + 1); !ok) {
    return tl::unexpected<Error>(ok.error());
  }
  if (auto ok = LmdbPut(txn, dbs_.tables, key, EncodeTableRecord(id, name), "create table"); !ok) {
    return tl::unexpected<Error>(ok.error());
  }
  return std::optional<TableInfo>(TableInfo{std::string(account), std::string(name), id});
}

Result<std::optional<std::uint64_t>> TableCatalog::Delete(MDB_txn* txn, std::string_view account,
                                                          std::string_view name) const {
  auto info = Find(txn, account, name);
  if (!info) return tl::unexpected<Error>(info.error());
  if (!*info) return std::optional<std::uint64_t>();
  std::string key = EncodeCatalogKey(account, name);
  if (auto ok = LmdbDel(txn, dbs_.tables, key, "delete table"); !ok) {
    return tl::unexpected<Error>(ok.error());
  }
  // Reclaim record: version | account | 0x00 | name (for diagnostics only).
  std::string id_key = EncodeTablePrefix((*info)->id);
  std::string record(1, static_cast<char>(kReclaimRecordVersion));
  record += key;
  if (auto ok = LmdbPut(txn, dbs_.reclaim, id_key, record, "delete table"); !ok) {
    return tl::unexpected<Error>(ok.error());
  }
  return std::optional<std::uint64_t>((*info)->id);
}

Result<void> TableCatalog::Scan(MDB_txn* txn, std::string_view account, std::string_view from_lower,
                                const std::function<bool(const TableInfo&)>& visit) const {
  std::string prefix(account);
  prefix.push_back('\0');
  std::string start = prefix + std::string(from_lower);
  auto cursor = LmdbCursor::Open(txn, dbs_.tables);
  if (!cursor) return tl::unexpected<Error>(cursor.error());
  MDB_val k = ToVal(start), v{};
  for (auto found = cursor->Get(MDB_SET_RANGE, &k, &v);; found = cursor->Get(MDB_NEXT, &k, &v)) {
    if (!found) return tl::unexpected<Error>(found.error());
    if (!*found || !FromVal(k).starts_with(prefix)) return {};
    auto info = DecodeTableRecord(account, FromVal(v));
    if (!info) return tl::unexpected<Error>(info.error());
    if (!visit(*info)) return {};
  }
}

Result<std::optional<std::uint64_t>> TableCatalog::FirstReclaim(MDB_txn* txn) const {
  auto cursor = LmdbCursor::Open(txn, dbs_.reclaim);
  if (!cursor) return tl::unexpected<Error>(cursor.error());
  MDB_val k{}, v{};
  auto found = cursor->Get(MDB_FIRST, &k, &v);
  if (!found) return tl::unexpected<Error>(found.error());
  if (!*found || k.mv_size != kTableIdBytes) return std::optional<std::uint64_t>();
  return std::optional<std::uint64_t>(ReadU64BE(FromVal(k)));
}

Result<void> TableCatalog::FinishReclaim(MDB_txn* txn, std::uint64_t id) const {
  auto deleted = LmdbDel(txn, dbs_.reclaim, EncodeTablePrefix(id), "finish reclaim");
  if (!deleted) return tl::unexpected<Error>(deleted.error());
  return {};
}

}  // namespace malachite::storage
