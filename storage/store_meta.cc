#include "storage/store_meta.h"

#include <string>

#include "storage/key_codec.h"
#include "storage/lmdb_txn.h"

namespace malachite::storage {

Result<std::optional<std::uint64_t>> ReadMetaU64(MDB_txn* txn, MDB_dbi meta, std::string_view key) {
  auto value = LmdbGet(txn, meta, key, "read meta");
  if (!value) return tl::unexpected<Error>(value.error());
  if (!*value) return std::optional<std::uint64_t>();
  if ((*value)->size() != 8) {
    return Fail(ErrorCode::kInternalError,
                "storage: meta value " + std::string(key) + " is corrupt");
  }
  return std::optional<std::uint64_t>(ReadU64BE(**value));
}

Result<void> WriteMetaU64(MDB_txn* txn, MDB_dbi meta, std::string_view key, std::uint64_t value) {
  std::string bytes;
  AppendU64BE(&bytes, value);
  return LmdbPut(txn, meta, key, bytes, "write meta");
}

Result<std::int64_t> InitMeta(MDB_env* env, MDB_dbi meta) {
  auto txn = LmdbTxn::Begin(env, nullptr, 0);
  if (!txn) return tl::unexpected<Error>(txn.error());
  auto version = ReadMetaU64(txn->get(), meta, kMetaFormatVersion);
  if (!version) return tl::unexpected<Error>(version.error());
  if (!*version) {
    if (auto ok = WriteMetaU64(txn->get(), meta, kMetaFormatVersion, kFormatVersion); !ok) {
      return tl::unexpected<Error>(ok.error());
    }
  } else if (**version != kFormatVersion) {
    return Fail(ErrorCode::kInternalError,
                "unknown storage format version " + std::to_string(**version) +
                    " (this build reads version " + std::to_string(kFormatVersion) + ")");
  }
  auto last = ReadMetaU64(txn->get(), meta, kMetaLastTimestamp);
  if (!last) return tl::unexpected<Error>(last.error());
  if (auto ok = txn->Commit(); !ok) return tl::unexpected<Error>(ok.error());
  return static_cast<std::int64_t>(last->value_or(0));
}

}  // namespace malachite::storage
