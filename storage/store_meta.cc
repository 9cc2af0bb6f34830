#include "storage/store_meta.h"

#include <string>

#include "storage/key_codec.h"
#include "storage/lmdb_error.h"
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

namespace {

// Emulator: our policy (storage/FORMAT.md, "Format versions and upgrades"): a store written by a
// newer build is refused in one line that names both versions and what to do, before anything
// is written. Version 1 is the first: there is no older version to migrate from yet.
Result<void> RefuseOtherVersion(std::uint64_t version) {
  if (version == kFormatVersion) return {};
  const std::string theirs = std::to_string(version);
  const std::string ours = std::to_string(kFormatVersion);
  if (version > kFormatVersion) {
    return Fail(ErrorCode::kInternalError,
                "storage format version " + theirs + " was written by a newer malachite; this " +
                    "build reads version " + ours + ": run that release or a newer one " +
                    "(nothing was changed)");
  }
  return Fail(ErrorCode::kInternalError, "unknown storage format version " + theirs +
                                             " (this build reads version " + ours +
                                             "; nothing was changed)");
}

}  // namespace

Result<void> CheckFormatVersion(MDB_env* env) {
  auto txn = LmdbTxn::Begin(env, nullptr, MDB_RDONLY);
  if (!txn) return tl::unexpected<Error>(txn.error());
  MDB_dbi meta = 0;
  // LMDB: without MDB_CREATE, opening a named database in a read-only transaction writes
  // nothing; MDB_NOTFOUND means a new environment (or one that never had a meta database).
  int rc = mdb_dbi_open(txn->get(), "meta", 0, &meta);
  if (rc == MDB_NOTFOUND) return {};
  if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, "open database meta"));
  auto version = ReadMetaU64(txn->get(), meta, kMetaFormatVersion);
  if (!version) return tl::unexpected<Error>(version.error());
  // The transaction aborts here: the handle of `meta` goes with it (LmdbEnv opens it again).
  return *version ? RefuseOtherVersion(**version) : Result<void>();
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
  } else if (auto ok = RefuseOtherVersion(**version); !ok) {
    return tl::unexpected<Error>(ok.error());
  }
  auto last = ReadMetaU64(txn->get(), meta, kMetaLastTimestamp);
  if (!last) return tl::unexpected<Error>(last.error());
  if (auto ok = txn->Commit(); !ok) return tl::unexpected<Error>(ok.error());
  return static_cast<std::int64_t>(last->value_or(0));
}

}  // namespace malachite::storage
