// The LMDB environment of a data directory, its named databases (storage/FORMAT.md) and its map,
// which grows as the data does (storage/FORMAT.md, "The map grows as needed").
#pragma once

#include <lmdb.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "common/durability.h"
#include "common/error.h"
#include "common/function_ref.h"
#include "storage/compaction.h"
#include "storage/data_dir_lock.h"
#include "storage/map_gate.h"

namespace malachite::storage {

struct LmdbEnvOptions {
  std::string dir;                               // contains data.mdb and lock.mdb
  std::uint64_t map_size = 0;                    // the most the map may grow to, in bytes
  Durability durability = Durability::kProcess;  // the sync flags (lmdb_env.cc)
  unsigned max_readers = 512;                    // concurrent read transactions
  // The map a new store starts with: 0 for the system's (platform::kInitialMapSize: the whole
  // map_size on POSIX, 64 MiB on Windows), at most map_size. A store with data opens with room
  // for it and one growth step (map_growth.h) if that is more.
  std::uint64_t initial_map_size = 0;
  // Called with (old size, new size) after each growth, on the thread that grew the map; may be
  // empty.
  std::function<void(std::uint64_t, std::uint64_t)> on_map_growth = nullptr;
};

// The named databases, opened once at startup. DBI handles are plain integers valid for the life
// of the environment and usable from every transaction; a compaction in place opens them again
// with the same numbers.
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
  // Errors: kInternalError with a one-line message naming the directory and the cause. A store
  // of another format version is refused (CheckFormatVersion's line) before anything in the
  // directory changes: every file keeps its bytes and size; only malachite.lock, the lock, is
  // made (empty) when missing.
  static Result<std::unique_ptr<LmdbEnv>> Open(const LmdbEnvOptions& options);
  ~LmdbEnv();
  LmdbEnv(const LmdbEnv&) = delete;
  LmdbEnv& operator=(const LmdbEnv&) = delete;

  // The environment. A compaction in place (CompactInPlace) replaces it: load it inside the gate
  // (readers) or under the writers' lock (writers), never keep it past them.
  MDB_env* get() const { return env_.load(std::memory_order_acquire); }
  const Databases& dbs() const { return dbs_; }
  const std::string& dir() const { return dir_; }

  // What every reader of the map passes (map_gate.h): read transactions, mdb_env_info,
  // mdb_env_copy2. Write transactions are kept out of a growth by their own lock instead.
  MapGate& gate() const { return gate_; }
  // The map's size now, and the most it may grow to (below the configured maximum when the
  // address space refused that at open). One relaxed load each.
  std::uint64_t map_size() const { return map_size_.load(std::memory_order_relaxed); }
  std::uint64_t max_map_size() const { return max_map_size_; }
  bool can_grow() const { return map_size() < max_map_size_; }
  // How many times the map grew since Open.
  std::uint64_t map_growths() const { return map_growths_.load(std::memory_order_relaxed); }
  // Grows the map one step (NextMapSize; where the map takes disk, FitDiskRoom), with the gate
  // closed while LMDB remaps. True when it grew; false when it cannot (at the maximum, or no room
  // on the disk of a map that takes disk), nothing changed. Errors: kInternalError when LMDB
  // unmapped the map and could not map it again: the map is gone, the gate broken for good (every
  // read fails; a restart opens the store as it was last committed).
  // REQUIRES: no write transaction is active and none can begin (the caller holds the writers'
  // lock), and the calling thread is inside no pass of the gate.
  Result<bool> GrowMap();

  // Gives the free pages back while the store serves (storage/FORMAT.md, "Getting disk space
  // back"): stages a compacted copy (StageCompactedCopy) with the gate open, so reads go on, then
  // closes the gate, waits until no reader is inside, runs `before_close` (whatever keeps a
  // transaction of the environment ends it there: ReadTxnPool's kept ones), closes the
  // environment, renames the copy over data.mdb (InstallCompactedCopy), opens it again with the
  // same flags and database handles and the map sized as at open (for the data and one growth
  // step), and opens the gate. Readers wait only for that
  // swap; writers wait for the whole of it (the caller holds their lock). On a failure before the
  // swap nothing changed; a failed rename reopens the old file (the error is returned either way).
  // Errors: those of the two steps; kInternalError when the environment could not be opened
  // again: the map is gone, the gate broken for good, as for a failed growth (a restart opens
  // data.mdb, the old or the new one, both whole). REQUIRES: as GrowMap's.
  Result<CompactionInfo> CompactInPlace(FunctionRef<void()> before_close);

 private:
  explicit LmdbEnv(DataDirLock lock) : lock_(std::move(lock)) {}
  // At open, before any transaction: the map as LMDB opened it (the configured size, or the data's
  // if more), grown to hold the data and one growth step more.
  Result<void> SizeMapForData();
  // The bytes LMDB has used at the end of data.mdb (its last page), as last committed.
  std::uint64_t UsedBytes() const;
  // The size LMDB reports for the map.
  std::uint64_t LmdbMapSize() const;
  // Where the map takes disk: `next` cut to what the data directory's disk has room for.
  std::uint64_t FitDisk(std::uint64_t current, std::uint64_t next) const;

  // Creates and opens a handle on dir_ with flags_ and max_readers_ and a map of `map_size`;
  // LMDB's return code (the handle is closed again on failure).
  int OpenHandle(std::uint64_t map_size, MDB_env** out) const;

  std::atomic<MDB_env*> env_{nullptr};
  // The map the environment was opened with, before SizeMapForData: what a compaction in place
  // opens its copy with again (so on Windows, where the file is as large as the map, the disk
  // is given back too).
  std::uint64_t opened_map_size_ = 0;
  unsigned flags_ = 0;
  unsigned max_readers_ = 0;
  DataDirLock lock_;  // released after mdb_env_close (members are destroyed after the body)
  Databases dbs_;
  std::string dir_;
  mutable MapGate gate_;
  std::atomic<std::uint64_t> map_size_{0};
  std::uint64_t max_map_size_ = 0;
  std::atomic<std::uint64_t> map_growths_{0};
  std::function<void(std::uint64_t, std::uint64_t)> on_map_growth_;
};

}  // namespace malachite::storage
