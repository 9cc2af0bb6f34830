#include "storage/lmdb_env.h"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <string>
#include <system_error>

#include "common/utf8_path.h"
#include "platform/files.h"
#include "platform/map_size.h"
#include "storage/data_dir_lock.h"
#include "storage/lmdb_error.h"
#include "storage/lmdb_txn.h"
#include "storage/map_growth.h"
#include "storage/read_only_env.h"
#include "storage/store_meta.h"

namespace malachite::storage {
namespace {

constexpr unsigned kMaxDbs = 8;
constexpr std::uint64_t kMinMapSize = 1ull << 30;

tl::unexpected<Error> DirError(const std::string& dir, const std::string& cause) {
  return Fail(ErrorCode::kInternalError, "data directory " + dir + ": " + cause);
}

// Creates the directory and checks it is a writable directory, so the common mistakes get a
// clear message instead of LMDB's errno text.
Result<void> PrepareDir(const std::string& dir) {
  namespace fs = std::filesystem;
  const fs::path path = Utf8Path(dir);
  std::error_code ec;
  if (fs::exists(path, ec) && !fs::is_directory(path, ec)) {
    return DirError(dir, "is not a directory");
  }
  fs::create_directories(path, ec);
  if (ec) return DirError(dir, "cannot create: " + ec.message());
  if (!fs::is_directory(path, ec)) return DirError(dir, "is not a directory");
  if (ec = platform::CheckDirWritable(dir); ec)
    return DirError(dir, "not accessible: " + ec.message());
  return {};
}

// LMDB: the reader table (lock.mdb) is a shared mapping that LMDB only sizes with ftruncate, so
// its pages get disk blocks when a reader slot is first used. On a full file system (a small
// tmpfs, a container's /dev/shm) that first touch is a SIGBUS that kills the process; allocating
// the file's blocks now turns a full disk into error answers instead. Best effort: a disk that is
// already full at start still serves reads with the slots that exist.
void ReserveReaderTable(const std::string& dir) {
  std::error_code ec;
  platform::File file = platform::File::OpenOrCreate(dir + "/lock.mdb", ec);
  if (!file.is_open()) return;
  if (auto size = file.Size(); size && *size > 0) (void)file.Allocate(*size);
}

// LMDB: a commit normally syncs twice: the data pages (fdatasync), then the meta page that
// points at them (written through an O_DSYNC descriptor). MDB_NOSYNC skips both: the commit is
// in the page cache (it survives the process, not the host) and the background flush syncs it.
// MDB_NOMETASYNC skips only the second: the meta page reaches the disk with the next commit's
// fdatasync or the background flush, so a host crash may undo the last commit, never corrupt the
// file (LMDB keeps ACI; only the D of that one commit is deferred). After a host crash, MDB_NOSYNC
// keeps the file intact only where the file system writes back in order (LMDB's caveat); the
// death of the process alone never loses a commit in either mode. Both need MDB_WRITEMAP off.
unsigned SyncFlags(Durability durability) {
  switch (durability) {
    case Durability::kFull:
      return MDB_NOMETASYNC;
    case Durability::kProcess:
    case Durability::kNone:
      return MDB_NOSYNC;
  }
  return 0;
}

// mdb_env_open's failure as the one line Open returns.
tl::unexpected<Error> EnvOpenError(const std::string& dir, int rc) {
  if (rc == MDB_INVALID || rc == MDB_VERSION_MISMATCH) {
    return DirError(dir, std::string("not an LMDB store of this version: ") + LmdbErrorText(rc));
  }
  return DirError(dir, std::string("cannot open LMDB environment: ") + LmdbErrorText(rc));
}

// The format check, made before the read-write open changes anything in the directory
// (storage/FORMAT.md, "Format versions and upgrades"): the read-write open creates lock.mdb when
// missing and, as its first user, resets it, and on Windows sets data.mdb's end to the map size
// (mdb_env_map: the map is the file there, platform/map_size.h), so a refused store would grow by
// the map; a ReadOnlyEnv does neither. Going without LMDB's locks is safe here because the
// caller holds the data-dir lock: no other Malachite has this environment open, so no writer can
// recycle the pages the check reads. A program that writes the store without that lock (an LMDB
// tool) at this very moment could at worst make the check misread; InitMeta reads the version
// again in the first write transaction, under LMDB's own locks, so a store is still never written
// by a build of another version. Cost: one open, two meta pages, one lookup; the mapping is
// address space only.
Result<void> CheckFormatVersionUnopened(const std::string& dir) {
  std::error_code ec;
  // A missing or empty data.mdb is a new store, which the read-write open initialises (a
  // read-only open would try to write its meta pages, and fail).
  const std::string file = dir + "/data.mdb";
  const std::uintmax_t size = std::filesystem::file_size(Utf8Path(file), ec);
  if (ec || size == 0) return {};
  ReadOnlyEnv env;
  if (int rc = env.Open(file); rc != 0) return EnvOpenError(dir, rc);
  if (auto ok = CheckFormatVersion(env.get()); !ok) return DirError(dir, ok.error().message);
  return {};
}

Result<MDB_dbi> OpenDbi(MDB_txn* txn, const char* name) {
  MDB_dbi dbi = 0;
  int rc = mdb_dbi_open(txn, name, MDB_CREATE, &dbi);
  if (rc != 0) return tl::unexpected<Error>(LmdbError(rc, std::string("open database ") + name));
  return dbi;
}

Result<void> OpenDatabases(MDB_env* env, Databases* dbs) {
  auto txn = LmdbTxn::Begin(env, nullptr, 0);
  if (!txn) return tl::unexpected<Error>(txn.error());
  for (auto [dbi, name] :
       {std::pair{&dbs->meta, "meta"}, std::pair{&dbs->tables, "tables"},
        std::pair{&dbs->entities, "entities"}, std::pair{&dbs->reclaim, "reclaim"},
        std::pair{&dbs->settings, "settings"}}) {
    auto opened = OpenDbi(txn->get(), name);
    if (!opened) return tl::unexpected<Error>(opened.error());
    *dbi = *opened;
  }
  return txn->Commit();
}

}  // namespace

Result<std::unique_ptr<LmdbEnv>> LmdbEnv::Open(const LmdbEnvOptions& options) {
  const std::string& dir = options.dir;
  if (auto ok = PrepareDir(dir); !ok) return tl::unexpected<Error>(ok.error());
  auto lock = DataDirLock::Take(dir);
  if (!lock) return tl::unexpected<Error>(lock.error());
  // A store of another format version is refused before the read-write open, before
  // OpenDatabases may create a database: a refused store is left exactly as it was.
  if (auto ok = CheckFormatVersionUnopened(dir); !ok) return tl::unexpected<Error>(ok.error());
  std::unique_ptr<LmdbEnv> env(new LmdbEnv(std::move(*lock)));
  env->dir_ = dir;
  env->on_map_growth_ = options.on_map_growth;

  // LMDB: MDB_NOTLS ties reader slots to transactions, not threads, so a ReadView may be used
  // by whichever thread holds it. Without MDB_WRITEMAP the file grows only as pages are written
  // (on POSIX; on Windows LMDB sets its end to the map size: platform/map_size.h).
  env->flags_ = MDB_NOTLS | SyncFlags(options.durability);
  env->max_readers_ = options.max_readers;
  const std::uint64_t initial = InitialMapSize(options.initial_map_size, options.map_size);
  std::uint64_t map_size = initial;
  MDB_env* handle = nullptr;
  int rc = 0;
  for (;;) {
    rc = env->OpenHandle(map_size, &handle);
    // A small address-space limit (ulimit -v, a 39-bit arm64 kernel, qemu-user) refuses the
    // default 1 TiB: retry smaller.
    if (rc != ENOMEM || map_size / 2 < kMinMapSize) break;
    map_size /= 2;
  }
  if (rc != 0) return EnvOpenError(dir, rc);
  env->env_.store(handle, std::memory_order_release);
  env->opened_map_size_ = map_size;
  // A map the address space refused is not grown back past what it allowed: LMDB unmaps before it
  // maps the grown size, and a refusal then would leave no map at all.
  env->max_map_size_ = map_size < initial ? map_size : options.map_size;
  if (auto ok = env->SizeMapForData(); !ok) return DirError(dir, ok.error().message);
  ReserveReaderTable(dir);
  if (auto ok = OpenDatabases(handle, &env->dbs_); !ok) {
    return DirError(dir, ok.error().message);
  }
  return env;
}

LmdbEnv::~LmdbEnv() {
  if (MDB_env* env = get(); env != nullptr) mdb_env_close(env);
}

int LmdbEnv::OpenHandle(std::uint64_t map_size, MDB_env** out) const {
  MDB_env* env = nullptr;
  if (int rc = mdb_env_create(&env); rc != 0) return rc;
  mdb_env_set_maxdbs(env, kMaxDbs);
  mdb_env_set_maxreaders(env, max_readers_);
  mdb_env_set_mapsize(env, map_size);
  // LMDB: a handle whose mdb_env_open failed must be closed (a second mdb_env_open on it fails
  // with EINVAL).
  if (int rc = mdb_env_open(env, dir_.c_str(), flags_, 0644); rc != 0) {
    mdb_env_close(env);
    return rc;
  }
  *out = env;
  return 0;
}

Result<CompactionInfo> LmdbEnv::CompactInPlace(FunctionRef<void()> before_close) {
  const std::string data_file = dir_ + "/data.mdb";
  CompactionInfo info;
  std::error_code ec;
  info.bytes_before = std::filesystem::file_size(Utf8Path(data_file), ec);
  StagedCopy staged;
  {
    // A long reader, as a backup: other readers go on while the copy is made.
    auto long_read = gate_.EnterLong();
    if (gate_.broken()) return tl::unexpected<Error>(gate_.broken_error());
    auto copy = StageCompactedCopy(get(), dir_);
    if (!copy) return tl::unexpected<Error>(copy.error());
    staged = std::move(*copy);
  }
  Result<void> installed;
  gate_.Remap([&] {
    before_close();
    mdb_env_close(env_.exchange(nullptr));
    // A failed rename leaves data.mdb as it was, which is opened again below.
    installed = InstallCompactedCopy(staged.file, dir_);
    MDB_env* handle = nullptr;
    int rc = OpenHandle(opened_map_size_, &handle);
    Databases reopened;
    if (rc == 0) {
      env_.store(handle, std::memory_order_release);
      if (!SizeMapForData() || !OpenDatabases(handle, &reopened)) rc = MDB_INVALID;
    }
    // LMDB: a database handle is the slot mdb_dbi_open gave its name in this environment, in the
    // order of opening; the same names opened in the same order get the same numbers, which the
    // read views and write contexts hold (StoreCore). Checked, not assumed.
    if (rc == 0 && (reopened.meta != dbs_.meta || reopened.tables != dbs_.tables ||
                    reopened.entities != dbs_.entities || reopened.reclaim != dbs_.reclaim ||
                    reopened.settings != dbs_.settings)) {
      rc = MDB_INVALID;
    }
    if (rc != 0) {
      if (handle != nullptr) mdb_env_close(env_.exchange(nullptr));
      gate_.Break(Error{ErrorCode::kInternalError,
                        "storage: " + data_file + " could not be opened again after compaction (" +
                            LmdbErrorText(rc) + "): restart the server",
                        "mdb_env_open"});
      return;
    }
  });
  if (gate_.broken()) return tl::unexpected<Error>(gate_.broken_error());
  if (!installed) return tl::unexpected<Error>(installed.error());
  info.bytes_after = std::filesystem::file_size(Utf8Path(data_file), ec);
  info.census = std::move(staged.census);
  return info;
}

std::uint64_t LmdbEnv::UsedBytes() const {
  MDB_envinfo info{};
  MDB_stat stat{};
  if (mdb_env_info(get(), &info) != 0 || mdb_env_stat(get(), &stat) != 0) return 0;
  return (static_cast<std::uint64_t>(info.me_last_pgno) + 1) * stat.ms_psize;
}

std::uint64_t LmdbEnv::LmdbMapSize() const {
  MDB_envinfo info{};
  if (mdb_env_info(get(), &info) != 0) return 0;
  return info.me_mapsize;
}

std::uint64_t LmdbEnv::FitDisk(std::uint64_t current, std::uint64_t next) const {
  if (!platform::kMappedFileTakesDisk) return next;
  std::error_code ec;
  const std::filesystem::space_info space = std::filesystem::space(Utf8Path(dir_), ec);
  // A disk that cannot tell its room is not a full one: let LMDB try (and fail) to extend.
  return ec ? next : FitDiskRoom(current, next, space.available);
}

Result<void> LmdbEnv::SizeMapForData() {
  // LMDB: mdb_env_open keeps a configured map size unless the data needs more (then exactly the
  // pages in use); it does not take the larger size recorded in the file. A store reopened with a
  // small initial map would then find its map full at the first write, so it gets the room one
  // growth from its data would give it.
  const std::uint64_t current = LmdbMapSize();
  const std::uint64_t wanted =
      FitDisk(current, std::max(current, NextMapSize(UsedBytes(), max_map_size_)));
  if (wanted > current) {
    // LMDB: no transaction is active yet (nothing else has the environment), so it may remap.
    if (int rc = mdb_env_set_mapsize(get(), wanted); rc != 0) {
      return Fail(
          ErrorCode::kInternalError,
          "cannot size the LMDB map to " + std::to_string(wanted) + " bytes: " + LmdbErrorText(rc));
    }
  }
  map_size_.store(LmdbMapSize(), std::memory_order_relaxed);
  return {};
}

Result<bool> LmdbEnv::GrowMap() {
  const std::uint64_t current = map_size();
  const std::uint64_t next = FitDisk(current, NextMapSize(current, max_map_size_));
  if (next <= current) return false;
  int rc = 0;
  gate_.Remap([&] {
    // LMDB: mdb_env_set_mapsize REQUIRES that no transaction of the process is active; it
    // refuses (EINVAL) only while a write transaction is, before touching the map. Any other
    // failure comes from mapping the grown file after the old map was unmapped (ENOMEM for the
    // address space; on Windows, the disk refusing the file's new end): the map is gone.
    rc = mdb_env_set_mapsize(get(), next);
    if (rc == 0) {
      map_size_.store(LmdbMapSize(), std::memory_order_relaxed);
    } else if (rc != EINVAL) {
      gate_.Break(Error{ErrorCode::kInternalError,
                        "storage: the LMDB map of " + dir_ + " could not grow to " +
                            std::to_string(next) + " bytes (" + LmdbErrorText(rc) +
                            ") and is unmapped: restart the server",
                        "mdb_env_set_mapsize"});
    }
  });
  if (rc != 0) {
    if (rc == EINVAL) return false;
    return tl::unexpected<Error>(gate_.broken_error());
  }
  map_growths_.fetch_add(1, std::memory_order_relaxed);
  if (on_map_growth_) on_map_growth_(current, map_size());
  return true;
}

}  // namespace malachite::storage
