#include "storage/table_catalog.h"

#include <string>

#include "storage/key_codec.h"
#include "storage/lmdb_error.h"
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
  std::string key = EncodeCatalogKey(account, name);
  MDB_val k = ToVal(key), v{};
  int rc = mdb_get(txn, dbs_.tables, &k, &v);
  if (rc == MDB_NOTFOUND) return std::optional<TableInfo>();
  if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, "find table"));
  auto info = DecodeTableRecord(account, FromVal(v));
  if (!info) return tl::unexpected<Error>(info.error());
  return std::optional<TableInfo>(std::move(*info));
}

Result<std::optional<std::uint64_t>> TableCatalog::FindId(MDB_txn* txn, std::string_view account,
                                                          std::string_view name,
                                                          std::string* key_buf) const {
  key_buf->clear();
  AppendCatalogKey(key_buf, account, name);
  MDB_val k = ToVal(*key_buf), v{};
  int rc = mdb_get(txn, dbs_.tables, &k, &v);
  if (rc == MDB_NOTFOUND) return std::optional<std::uint64_t>();
  if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, "find table"));
  if (v.mv_size < 9) return Fail(ErrorCode::kInternalError, "storage: malformed table record");
  return std::optional<std::uint64_t>(ReadU64BE(FromVal(v).substr(1)));
}

Result<std::optional<TableInfo>> TableCatalog::Create(MDB_txn* txn, std::string_view account,
                                                      std::string_view name) const {
  std::string key = EncodeCatalogKey(account, name);
  MDB_val k = ToVal(key), v{};
  int rc = mdb_get(txn, dbs_.tables, &k, &v);
  if (rc == 0) return std::optional<TableInfo>();
  if (rc != MDB_NOTFOUND) return tl::unexpected<Error>(LmdbError(rc, "create table"));
  // Ids are never reused, so nothing of a deleted table can show through a new one.
  auto next = ReadMetaU64(txn, dbs_.meta, kMetaNextTableId);
  if (!next) return tl::unexpected<Error>(next.error());
  std::uint64_t id = next->value_or(kFirstTableId);
  if (auto ok = WriteMetaU64(txn, dbs_.meta, kMetaNextTableId, id + 1); !ok) {
    return tl::unexpected<Error>(ok.error());
  }
  std::string record = EncodeTableRecord(id, name);
  MDB_val rv = ToVal(record);
  if (auto ok = LmdbCheck(mdb_put(txn, dbs_.tables, &k, &rv, 0), "create table"); !ok) {
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
  MDB_val k = ToVal(key);
  if (auto ok = LmdbCheck(mdb_del(txn, dbs_.tables, &k, nullptr), "delete table"); !ok) {
    return tl::unexpected<Error>(ok.error());
  }
  // Reclaim record: version | account | 0x00 | name (for diagnostics only).
  std::string id_key = EncodeTablePrefix((*info)->id);
  std::string record(1, static_cast<char>(kReclaimRecordVersion));
  record += key;
  MDB_val rk = ToVal(id_key), rv = ToVal(record);
  if (auto ok = LmdbCheck(mdb_put(txn, dbs_.reclaim, &rk, &rv, 0), "delete table"); !ok) {
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
  std::string key = EncodeTablePrefix(id);
  MDB_val k = ToVal(key);
  int rc = mdb_del(txn, dbs_.reclaim, &k, nullptr);
  if (rc == MDB_NOTFOUND) return {};
  return LmdbCheck(rc, "finish reclaim");
}

}  // namespace malachite::storage
