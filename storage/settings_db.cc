#include "storage/settings_db.h"

#include "storage/key_codec.h"
#include "storage/lmdb_txn.h"

namespace malachite::storage {

std::string TableAclKey(std::uint64_t table_id) {
  std::string key(1, 'A');
  AppendU64BE(&key, table_id);
  return key;
}

std::string ServicePropertiesKey(std::string_view account) {
  std::string key(1, 'S');
  key.append(account);
  return key;
}

std::string RuntimeAccountKey(std::string_view account) {
  std::string key(1, kRuntimeAccountPrefix);
  key.append(account);
  return key;
}

Result<std::optional<std::string>> SettingsDb::Get(MDB_txn* txn, std::string_view key) const {
  auto value = LmdbGet(txn, dbi_, key, "read setting");
  if (!value) return tl::unexpected<Error>(value.error());
  if (!*value) return std::optional<std::string>();
  return std::optional<std::string>(std::string(**value));
}

Result<void> SettingsDb::Put(MDB_txn* txn, std::string_view key, std::string_view value) const {
  return LmdbPut(txn, dbi_, key, value, "write setting");
}

Result<void> SettingsDb::Delete(MDB_txn* txn, std::string_view key) const {
  auto deleted = LmdbDel(txn, dbi_, key, "delete setting");
  if (!deleted) return tl::unexpected<Error>(deleted.error());
  return {};
}

Result<void> SettingsDb::Scan(
    MDB_txn* txn, std::string_view prefix,
    const std::function<void(std::string_view, std::string_view)>& visit) const {
  auto cursor = LmdbCursor::Open(txn, dbi_);
  if (!cursor) return tl::unexpected<Error>(cursor.error());
  MDB_val k = ToVal(prefix), v{};
  for (auto found = cursor->Get(MDB_SET_RANGE, &k, &v);; found = cursor->Get(MDB_NEXT, &k, &v)) {
    if (!found) return tl::unexpected<Error>(found.error());
    if (!*found || !FromVal(k).starts_with(prefix)) return {};
    visit(FromVal(k), FromVal(v));
  }
}

}  // namespace malachite::storage
