// The "meta" database: a few named u64 values (storage/FORMAT.md, "meta").
#pragma once

#include <lmdb.h>

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/error.h"

namespace malachite::storage {

// The on-disk format this build reads and writes. Bump it for any incompatible change.
inline constexpr std::uint64_t kFormatVersion = 1;

inline constexpr std::string_view kMetaFormatVersion = "format_version";
inline constexpr std::string_view kMetaNextTableId = "next_table_id";
inline constexpr std::string_view kMetaLastTimestamp = "last_timestamp";

// The value of `key`, or nullopt. Errors: kInternalError (also for a value that is not 8 bytes).
Result<std::optional<std::uint64_t>> ReadMetaU64(MDB_txn* txn, MDB_dbi meta, std::string_view key);
Result<void> WriteMetaU64(MDB_txn* txn, MDB_dbi meta, std::string_view key, std::uint64_t value);

// Reads `format_version` in a read-only transaction, before anything is created or written
// (storage/FORMAT.md, "Format versions and upgrades"): a store of this version, or one without
// the meta database or the value (a new environment), passes. Errors: kInternalError, with the
// one-line refusal naming both versions for a newer store, or a read failure.
Result<void> CheckFormatVersion(MDB_env* env);

// On a fresh environment records kFormatVersion; otherwise checks it. Returns the last
// persisted timestamp ticks (0 when none). Errors: kInternalError, as CheckFormatVersion.
Result<std::int64_t> InitMeta(MDB_env* env, MDB_dbi meta);

}  // namespace malachite::storage
