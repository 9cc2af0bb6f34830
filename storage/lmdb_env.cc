#include "storage/lmdb_env.h"

#include <cerrno>
#include <filesystem>
#include <system_error>

#include "platform/files.h"
#include "storage/data_dir_lock.h"
#include "storage/lmdb_error.h"
#include "storage/lmdb_txn.h"
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
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) return DirError(dir, "is not a directory");
  fs::create_directories(dir, ec);
  if (ec) return DirError(dir, "cannot create: " + ec.message());
  if (!fs::is_directory(dir, ec)) return DirError(dir, "is not a directory");
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
  std::unique_ptr<LmdbEnv> env(new LmdbEnv(std::move(*lock)));
  env->dir_ = dir;

  // LMDB: MDB_NOTLS ties reader slots to transactions, not threads, so a ReadView may be used
  // by whichever thread holds it. Without MDB_WRITEMAP the file grows only as pages are written:
  // a large map is address space, not disk.
  unsigned flags = MDB_NOTLS | SyncFlags(options.durability);
  std::uint64_t map_size = options.map_size;
  int rc = 0;
  for (;;) {
    if (rc = mdb_env_create(&env->env_); rc != 0) {
      env->env_ = nullptr;
      return DirError(dir, std::string("mdb_env_create: ") + LmdbErrorText(rc));
    }
    mdb_env_set_maxdbs(env->env_, kMaxDbs);
    mdb_env_set_maxreaders(env->env_, options.max_readers);
    mdb_env_set_mapsize(env->env_, map_size);
    rc = mdb_env_open(env->env_, dir.c_str(), flags, 0644);
    // A small address-space limit (ulimit -v, a 39-bit arm64 kernel, qemu-user) refuses the
    // default 1 TiB: retry smaller. LMDB: a handle whose mdb_env_open failed must be closed (a
    // second mdb_env_open on it fails with EINVAL), so each try gets a new one.
    if (rc != ENOMEM || map_size / 2 < kMinMapSize) break;
    mdb_env_close(env->env_);
    env->env_ = nullptr;
    map_size /= 2;
  }
  if (rc != 0) {
    if (rc == MDB_INVALID || rc == MDB_VERSION_MISMATCH) {
      return DirError(dir, std::string("not an LMDB store of this version: ") + LmdbErrorText(rc));
    }
    return DirError(dir, std::string("cannot open LMDB environment: ") + LmdbErrorText(rc));
  }
  ReserveReaderTable(dir);
  // A store of another format version is refused before OpenDatabases may create a database:
  // a refused store is left exactly as it was (storage/FORMAT.md, "Format versions and upgrades").
  if (auto ok = CheckFormatVersion(env->env_); !ok) return DirError(dir, ok.error().message);
  if (auto ok = OpenDatabases(env->env_, &env->dbs_); !ok) {
    return DirError(dir, ok.error().message);
  }
  return env;
}

LmdbEnv::~LmdbEnv() {
  if (env_ != nullptr) mdb_env_close(env_);
}

}  // namespace malachite::storage
