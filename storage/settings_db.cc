#include "storage/settings_db.h"

#include "storage/key_codec.h"
#include "storage/lmdb_error.h"
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

Result<std::optional<std::string>> SettingsDb::Get(MDB_txn* txn, std::string_view key) const {
  MDB_val k = ToVal(key), v{};
  int rc = mdb_get(txn, dbi_, &k, &v);
  if (rc == MDB_NOTFOUND) return std::optional<std::string>();
  if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, "read setting"));
  return std::optional<std::string>(std::string(FromVal(v)));
}

Result<void> SettingsDb::Put(MDB_txn* txn, std::string_view key, std::string_view value) const {
  MDB_val k = ToVal(key), v = ToVal(value);
  return LmdbCheck(mdb_put(txn, dbi_, &k, &v, 0), "write setting");
}

Result<void> SettingsDb::Delete(MDB_txn* txn, std::string_view key) const {
  MDB_val k = ToVal(key);
  int rc = mdb_del(txn, dbi_, &k, nullptr);
  if (rc == MDB_NOTFOUND) return {};
  return LmdbCheck(rc, "delete setting");
}

}  // namespace malachite::storage
