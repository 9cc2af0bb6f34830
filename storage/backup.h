// Hot backups and restores of a data directory (storage/FORMAT.md, "Backups"). A backup is a
// directory holding one compacted data.mdb: itself a valid data directory.
#pragma once

#include <lmdb.h>

#include <cstdint>
#include <string>

#include "common/error.h"

namespace malachite::storage {

// What a backup wrote.
struct BackupInfo {
  std::string dest;         // the backup directory
  std::uint64_t bytes = 0;  // size of its data.mdb
};

// Copies `env` consistently (one read transaction: every commit before the call is in the copy,
// nothing after) with compaction into `dest_dir`, which must not exist or be an empty
// directory. The copy goes to a sibling temp directory, is fsynced and renamed into place, so
// `dest_dir` never holds a partial backup. Safe while the writer runs (it only reads). Errors:
// kInvalidInput (dest_dir exists and is not an empty directory), kInternalError (I/O, LMDB).
Result<BackupInfo> CopyEnvironment(MDB_env* env, const std::string& dest_dir);

// Replaces the data of `data_dir` (created if missing) with the backup in `backup_dir`. Takes
// the directory's lock first, so a running server's directory is refused (kInternalError naming
// kDataDirInUse). The backup's data.mdb is copied beside the live one, checked (an LMDB
// environment of this build's format version), fsynced and renamed over data.mdb; LMDB's stale
// lock.mdb is removed. Errors: kInvalidInput (no data.mdb in backup_dir, not a Malachite store of
// this version), kInternalError (lock, I/O).
Result<BackupInfo> RestoreDataDir(const std::string& backup_dir, const std::string& data_dir);

}  // namespace malachite::storage
