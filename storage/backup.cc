#include "storage/backup.h"

#include <filesystem>
#include <system_error>

#include "platform/files.h"
#include "storage/data_dir_lock.h"
#include "storage/lmdb_error.h"
#include "storage/lmdb_txn.h"
#include "storage/store_meta.h"

namespace malachite::storage {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDataFile = "data.mdb";

tl::unexpected<Error> IoError(const std::string& what, const std::string& path,
                              const std::error_code& ec) {
  return Fail(ErrorCode::kInternalError, what + " " + path + ": " + ec.message());
}

// fsync(2) of a file or directory, so a rename that follows (or preceded) is durable.
Result<void> SyncPath(const std::string& path, bool directory) {
  if (auto ec = platform::SyncPath(path, directory)) return IoError("cannot sync", path, ec);
  return {};
}

// Renames `from` to `to`, replacing a file or an empty directory there. POSIX rename(2) replaces
// both at once; Windows replaces a file but not a directory, so an empty one is removed first.
std::error_code RenameReplacing(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  std::error_code probe;
  if (ec && fs::is_directory(to, probe) && fs::is_empty(to, probe)) {
    fs::remove(to, ec);
    if (!ec) fs::rename(from, to, ec);
  }
  return ec;
}

// `dest` must not exist, or be an empty directory (rename(2) replaces an empty directory).
Result<void> CheckDestination(const fs::path& dest) {
  std::error_code ec;
  if (!fs::exists(dest, ec)) return {};
  if (!fs::is_directory(dest, ec) || !fs::is_empty(dest, ec)) {
    return Fail(ErrorCode::kInvalidInput,
                "backup destination " + dest.string() + " exists and is not an empty directory");
  }
  return {};
}

// A fresh sibling directory of `dest` for the copy in progress.
Result<fs::path> MakeStaging(const fs::path& dest) {
  fs::path parent = dest.parent_path().empty() ? fs::path(".") : dest.parent_path();
  std::error_code ec;
  fs::create_directories(parent, ec);
  const std::string prefix = (parent / ("." + dest.filename().string() + ".partial-")).string();
  const std::string staging = platform::MakeUniqueDir(prefix, ec);
  if (staging.empty()) return IoError("cannot create", prefix + "XXXXXX", ec);
  return fs::path(staging);
}

// Checks that `file` is an LMDB environment written in this build's format version.
Result<void> CheckStoreFile(const std::string& file) {
  MDB_env* env = nullptr;
  if (int rc = mdb_env_create(&env); rc != 0) return tl::unexpected<Error>(LmdbError(rc, "create"));
  struct Closer {
    MDB_env* env;
    ~Closer() { mdb_env_close(env); }
  } closer{env};
  mdb_env_set_maxdbs(env, 8);
  // LMDB: MDB_NOLOCK + MDB_RDONLY reads the file without creating a lock file beside it.
  int rc = mdb_env_open(env, file.c_str(), MDB_NOSUBDIR | MDB_RDONLY | MDB_NOLOCK, 0644);
  if (rc != 0) {
    return Fail(ErrorCode::kInvalidInput,
                file + " is not an LMDB environment: " + std::string(LmdbErrorText(rc)));
  }
  auto txn = LmdbTxn::Begin(env, nullptr, MDB_RDONLY);
  if (!txn) return tl::unexpected<Error>(txn.error());
  MDB_dbi meta = 0;
  if (mdb_dbi_open(txn->get(), "meta", 0, &meta) != 0) {
    return Fail(ErrorCode::kInvalidInput, file + " is not a Malachite store (no meta database)");
  }
  auto version = ReadMetaU64(txn->get(), meta, kMetaFormatVersion);
  if (!version) return tl::unexpected<Error>(version.error());
  if (*version != kFormatVersion) {
    return Fail(ErrorCode::kInvalidInput, file + " is not a Malachite store of format version " +
                                              std::to_string(kFormatVersion));
  }
  return {};
}

}  // namespace

Result<BackupInfo> CopyEnvironment(MDB_env* env, const std::string& dest_dir) {
  const fs::path dest(dest_dir);
  if (auto ok = CheckDestination(dest); !ok) return tl::unexpected<Error>(ok.error());
  auto staging = MakeStaging(dest);
  if (!staging) return tl::unexpected<Error>(staging.error());
  std::error_code ec;
  // LMDB: mdb_env_copy2 runs in its own read transaction, so it sees exactly the commits made
  // before it began and never blocks the writer; MDB_CP_COMPACT skips free pages.
  if (int rc = mdb_env_copy2(env, staging->string().c_str(), MDB_CP_COMPACT); rc != 0) {
    fs::remove_all(*staging, ec);
    return tl::unexpected<Error>(LmdbError(rc, "backup to " + dest_dir));
  }
  const std::string file = (*staging / kDataFile).string();
  Result<void> synced = SyncPath(file, false);
  if (synced) synced = SyncPath(staging->string(), true);
  if (synced) {
    if (auto renamed = RenameReplacing(*staging, dest)) {
      synced = IoError("cannot rename the backup to", dest_dir, renamed);
    }
  }
  if (!synced) {
    fs::remove_all(*staging, ec);
    return tl::unexpected<Error>(synced.error());
  }
  const fs::path parent = dest.parent_path().empty() ? fs::path(".") : dest.parent_path();
  if (auto ok = SyncPath(parent.string(), true); !ok) return tl::unexpected<Error>(ok.error());
  return BackupInfo{dest_dir, static_cast<std::uint64_t>(fs::file_size(dest / kDataFile, ec))};
}

Result<BackupInfo> RestoreDataDir(const std::string& backup_dir, const std::string& data_dir) {
  const fs::path source = fs::path(backup_dir) / kDataFile;
  std::error_code ec;
  if (!fs::is_regular_file(source, ec)) {
    return Fail(ErrorCode::kInvalidInput, backup_dir + " holds no data.mdb (not a backup)");
  }
  fs::create_directories(data_dir, ec);
  if (ec) return Fail(ErrorCode::kInternalError, "cannot create " + data_dir + ": " + ec.message());
  auto lock = DataDirLock::Take(data_dir);
  if (!lock) return tl::unexpected<Error>(lock.error());
  const fs::path target = fs::path(data_dir) / kDataFile;
  const fs::path incoming = fs::path(data_dir) / "data.mdb.restoring";
  fs::copy_file(source, incoming, fs::copy_options::overwrite_existing, ec);
  if (ec) {
    return Fail(ErrorCode::kInternalError, "cannot copy " + source.string() + ": " + ec.message());
  }
  Result<void> ok = CheckStoreFile(incoming.string());
  if (ok) ok = SyncPath(incoming.string(), false);
  if (ok) {
    if (auto renamed = RenameReplacing(incoming, target)) {
      ok = IoError("cannot rename into", target.string(), renamed);
    }
  }
  if (!ok) {
    fs::remove(incoming, ec);
    return tl::unexpected<Error>(ok.error());
  }
  // LMDB: lock.mdb is only the reader table; nobody has the environment open (we hold the lock),
  // and LMDB rebuilds it on the next open.
  fs::remove(fs::path(data_dir) / "lock.mdb", ec);
  if (auto synced = SyncPath(data_dir, true); !synced) return tl::unexpected<Error>(synced.error());
  return BackupInfo{data_dir, static_cast<std::uint64_t>(fs::file_size(target, ec))};
}

}  // namespace malachite::storage
