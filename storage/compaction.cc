#include "storage/compaction.h"

#include <lmdb.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "common/utf8_path.h"
#include "platform/files.h"
#include "storage/data_dir_lock.h"
#include "storage/lmdb_error.h"
#include "storage/lmdb_txn.h"
#include "storage/read_only_env.h"

namespace malachite::storage {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDataFile = "data.mdb";
constexpr const char* kStagingPrefix = ".compact-";

tl::unexpected<Error> IoError(const std::string& what, const std::string& path,
                              const std::error_code& ec) {
  return Fail(ErrorCode::kInternalError, what + " " + path + ": " + ec.message());
}

// Opens the environment in `file` (ReadOnlyEnv): the caller either holds malachite.lock (no
// store can write the file meanwhile) or opens a copy nobody else knows of.
Result<void> OpenReadOnly(const std::string& file, ReadOnlyEnv& out) {
  if (int rc = out.Open(file); rc != 0) {
    return Fail(ErrorCode::kInvalidInput,
                file + " is not an LMDB environment: " + std::string(LmdbErrorText(rc)));
  }
  return {};
}

Result<std::string> Census(MDB_env* env) {
  auto txn = LmdbTxn::Begin(env, nullptr, MDB_RDONLY);
  if (!txn) return tl::unexpected<Error>(txn.error());
  // LMDB: the main database holds one record per named database, keyed by its name (dbi 0 is
  // the free list, which a compacted copy leaves out).
  MDB_dbi main = 0;
  if (int rc = mdb_dbi_open(txn->get(), nullptr, 0, &main); rc != 0) {
    return tl::unexpected<Error>(LmdbError(rc, "open the main database"));
  }
  MDB_stat stat{};
  if (int rc = mdb_stat(txn->get(), main, &stat); rc != 0) {
    return tl::unexpected<Error>(LmdbError(rc, "stat"));
  }
  std::string census = "(main)=" + std::to_string(stat.ms_entries);
  auto cursor = LmdbCursor::Open(txn->get(), main);
  if (!cursor) return tl::unexpected<Error>(cursor.error());
  MDB_val key{}, value{};
  for (;;) {
    auto positioned = cursor->Get(MDB_NEXT, &key, &value);
    if (!positioned) return tl::unexpected<Error>(positioned.error());
    if (!*positioned) break;
    const std::string name(static_cast<const char*>(key.mv_data), key.mv_size);
    MDB_dbi dbi = 0;
    if (mdb_dbi_open(txn->get(), name.c_str(), 0, &dbi) != 0) continue;  // not a database
    if (int rc = mdb_stat(txn->get(), dbi, &stat); rc != 0) {
      return tl::unexpected<Error>(LmdbError(rc, "stat " + name));
    }
    census += " " + name + "=" + std::to_string(stat.ms_entries);
  }
  return census;
}

// Removes the staging directories of compactions a kill interrupted.
void RemoveLeftovers(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (PathUtf8(it->path().filename()).rfind(kStagingPrefix, 0) == 0) {
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
    }
  }
}

// Copies the environment of `source` compacted into a new staging directory of `dir`; returns
// the copy's data.mdb, fsynced.
Result<fs::path> CopyCompacted(MDB_env* source, const fs::path& dir) {
  std::error_code ec;
  const std::string staging = platform::MakeUniqueDir(PathUtf8(dir / kStagingPrefix), ec);
  if (staging.empty()) return IoError("cannot create", PathUtf8(dir / kStagingPrefix), ec);
  // LMDB: mdb_env_copy2 with MDB_CP_COMPACT walks every database in one read transaction and
  // writes only the pages in use, renumbered in order: the free list is left out. The
  // destination is a file name when the source was opened with MDB_NOSUBDIR, else a directory.
  unsigned flags = 0;
  mdb_env_get_flags(source, &flags);
  const fs::path copy = Utf8Path(staging) / kDataFile;
  const fs::path target = (flags & MDB_NOSUBDIR) != 0 ? copy : Utf8Path(staging);
  if (int rc = mdb_env_copy2(source, PathUtf8(target).c_str(), MDB_CP_COMPACT); rc != 0) {
    fs::remove_all(staging, ec);
    return tl::unexpected<Error>(LmdbError(rc, "compact into " + staging));
  }
  if (auto failed = platform::SyncPath(PathUtf8(copy), false)) {
    fs::remove_all(staging, ec);
    return IoError("cannot sync", PathUtf8(copy), failed);
  }
  return copy;
}

// A quarter of the file and at least `min_free` bytes free, at most `max_live` bytes live.
bool CompactionPays(const PageStats& pages, std::uint64_t min_free, std::uint64_t max_live) {
  return pages.pages_free * 4 >= pages.pages_total &&
         pages.pages_free * pages.page_size >= min_free &&
         pages.pages_live() * pages.page_size <= max_live;
}

}  // namespace

bool CompactionPaysAtOpen(const PageStats& pages) {
  return CompactionPays(pages, std::uint64_t{16} << 20, std::uint64_t{1} << 30);
}

bool CompactionPaysWhileServing(const PageStats& pages) {
  return CompactionPays(pages, std::uint64_t{8} << 20, std::uint64_t{256} << 20);
}

Result<std::string> CensusOf(const std::string& file) {
  ReadOnlyEnv env;
  if (auto ok = OpenReadOnly(file, env); !ok) return tl::unexpected<Error>(ok.error());
  return Census(env.get());
}

Result<StagedCopy> StageCompactedCopy(MDB_env* source, const std::string& data_dir) {
  const fs::path dir = Utf8Path(data_dir);
  RemoveLeftovers(dir);
  auto census = Census(source);
  if (!census) return tl::unexpected<Error>(census.error());
  auto copy = CopyCompacted(source, dir);
  if (!copy) return tl::unexpected<Error>(copy.error());
  auto copied = CensusOf(PathUtf8(*copy));
  if (copied && *copied != *census) {
    copied = Fail(ErrorCode::kInternalError, "the compacted copy of " + data_dir + " holds " +
                                                 *copied + ", the original " + *census);
  }
  if (!copied) {
    std::error_code ec;
    fs::remove_all(copy->parent_path(), ec);
    return tl::unexpected<Error>(copied.error());
  }
  return StagedCopy{PathUtf8(*copy), std::move(*census)};
}

Result<void> InstallCompactedCopy(const std::string& copy, const std::string& data_dir) {
  const fs::path staged = Utf8Path(copy);
  const fs::path live = Utf8Path(data_dir) / kDataFile;
  std::error_code ec;
  // POSIX rename(2) and Windows' MoveFileEx (std::filesystem::rename) replace a file at once.
  fs::rename(staged, live, ec);
  if (ec) {
    const auto failed = ec;
    fs::remove_all(staged.parent_path(), ec);
    return IoError("cannot rename the compacted copy over", PathUtf8(live), failed);
  }
  if (auto failed = platform::SyncPath(data_dir, true)) {
    return IoError("cannot sync", data_dir, failed);
  }
  fs::remove_all(staged.parent_path(), ec);
  return {};
}

Result<CompactionInfo> CompactDataDir(const std::string& data_dir) {
  const fs::path dir = Utf8Path(data_dir);
  const fs::path live = dir / kDataFile;
  std::error_code ec;
  if (!fs::is_regular_file(live, ec)) {
    return Fail(ErrorCode::kInvalidInput, "data directory " + data_dir + " holds no data.mdb");
  }
  auto lock = DataDirLock::Take(data_dir);
  if (!lock) return tl::unexpected<Error>(lock.error());
  CompactionInfo info;
  info.bytes_before = fs::file_size(live, ec);

  ReadOnlyEnv source;
  if (auto ok = OpenReadOnly(PathUtf8(live), source); !ok) {
    return tl::unexpected<Error>(ok.error());
  }
  auto copy = StageCompactedCopy(source.get(), data_dir);
  if (!copy) return tl::unexpected<Error>(copy.error());
  // LMDB: the source is closed before the rename (on Windows a mapped file cannot be replaced).
  source.Close();
  if (auto installed = InstallCompactedCopy(copy->file, data_dir); !installed) {
    return tl::unexpected<Error>(installed.error());
  }
  // LMDB: lock.mdb is only the reader table; nobody has the environment open (we hold the lock),
  // and LMDB rebuilds it on the next open.
  fs::remove(dir / "lock.mdb", ec);
  info.bytes_after = fs::file_size(live, ec);
  info.census = std::move(copy->census);
  return info;
}

}  // namespace malachite::storage
