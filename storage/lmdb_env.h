// The LMDB environment of a data directory and its named databases (storage/FORMAT.md).
#pragma once

#include <lmdb.h>

#include <cstdint>
#include <memory>
#include <string>

#include "common/durability.h"
#include "common/error.h"
#include "storage/data_dir_lock.h"

namespace malachite::storage {

struct LmdbEnvOptions {
  std::string dir;                               // contains data.mdb and lock.mdb
  std::uint64_t map_size = 0;                    // bytes of address space
  Durability durability = Durability::kProcess;  // the sync flags (lmdb_env.cc)
  unsigned max_readers = 512;                    // concurrent read transactions
};

// The named databases, opened once at startup. DBI handles are plain integers valid for the life
// of the environment and usable from every transaction.
struct Databases {
  MDB_dbi meta = 0;      // format version, next table id, last timestamp
  MDB_dbi tables = 0;    // catalog: account 0x00 lower(name) -> table record
  MDB_dbi entities = 0;  // entity key -> entity record (or overflow bucket)
  MDB_dbi reclaim = 0;   // table id -> reclaim record
  MDB_dbi settings = 0;  // table ACLs and account service properties (settings_db.h)
};

class LmdbEnv {
 public:
  // Creates the directory if missing, takes an exclusive lock on it (one Store per directory,
  // across processes and inside one), opens the environment and the named databases.
  // Errors: kInternalError with a one-line message naming the directory and the cause.
  static Result<std::unique_ptr<LmdbEnv>> Open(const LmdbEnvOptions& options);
  ~LmdbEnv();
  LmdbEnv(const LmdbEnv&) = delete;
  LmdbEnv& operator=(const LmdbEnv&) = delete;

  MDB_env* get() const { return env_; }
  const Databases& dbs() const { return dbs_; }
  const std::string& dir() const { return dir_; }

 private:
  explicit LmdbEnv(DataDirLock lock) : lock_(std::move(lock)) {}
  MDB_env* env_ = nullptr;
  DataDirLock lock_;  // released after mdb_env_close (members are destroyed after the body)
  Databases dbs_;
  std::string dir_;
};

}  // namespace malachite::storage
