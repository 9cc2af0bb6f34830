// Giving the disk back: compacting a data directory (storage/FORMAT.md, "Getting disk space
// back"), stopped (CompactDataDir) or while its store serves (LmdbEnv::CompactInPlace, built from
// the two steps below). LMDB reuses the pages deleted data leaves behind but never shrinks
// data.mdb; compaction rewrites it with the live pages only, packed in key order.
#pragma once

#include <lmdb.h>

#include <cstdint>
#include <string>

#include "common/error.h"
#include "storage/page_stats.h"

namespace malachite::storage {

// What a compaction did.
struct CompactionInfo {
  std::uint64_t bytes_before = 0;  // data.mdb's size before
  std::uint64_t bytes_after = 0;   // and after
  std::string census;              // the entries of every database, equal before and after
};

// Compacts the data directory `data_dir` in place. Takes the directory's lock first, so a
// running store's directory is refused (kInternalError naming kDataDirInUse). Copies the
// environment with LMDB's compaction (mdb_env_copy2, MDB_CP_COMPACT: the live pages only,
// renumbered) into a staging directory inside `data_dir`, checks that the copy holds as many
// entries in every database as the original (the census), fsyncs it, renames its data.mdb over
// the live one and fsyncs the directory, so data.mdb is at every moment either the old file or
// the whole new one (a kill leaves at most a staging directory, removed by the next compaction).
// Errors: kInvalidInput (no data.mdb in data_dir, not an LMDB environment), kInternalError (lock,
// I/O, LMDB, a census that differs: then nothing was replaced).
Result<CompactionInfo> CompactDataDir(const std::string& data_dir);

// The first step, for a caller that holds the directory's lock: removes staging directories a
// killed compaction left, copies the environment `source` (whose data.mdb is in `data_dir`)
// compacted into a new staging directory of `data_dir`, checks that the copy holds as many
// entries in every database as the source (the census) and fsyncs it. REQUIRES: nothing commits to
// `source` meanwhile (the census and the copy are two read transactions), and the caller may read
// its map (MapGate). Errors: kInternalError (I/O, LMDB, a census that differs); then no staging
// directory is left.
struct StagedCopy {
  std::string file;    // the copy's data.mdb
  std::string census;  // what CensusOf says of it (and of the source)
};
Result<StagedCopy> StageCompactedCopy(MDB_env* source, const std::string& data_dir);

// The second step: renames the staged `copy` over `data_dir`'s data.mdb and fsyncs the
// directory, then removes the staging directory. REQUIRES: nothing has data.mdb open (on Windows
// a mapped file cannot be replaced). Errors: kInternalError; a failed rename leaves data.mdb as it
// was (and removes the copy).
Result<void> InstallCompactedCopy(const std::string& copy, const std::string& data_dir);

// Whether a store with these pages is compacted when it opens (StoreOptions::compact_at_open):
// at least a quarter of data.mdb and 16 MiB are free, and at most 1 GiB is live, so the copy costs
// the start a second or two at most (storage/FORMAT.md, "Getting disk space back").
bool CompactionPaysAtOpen(const PageStats& pages);

// "name=entries ..." for the main database and every named database of the environment in
// `file` (a data.mdb), opened read-only without a lock file. Errors: kInvalidInput (not an LMDB
// environment), kInternalError.
Result<std::string> CensusOf(const std::string& file);

// Whether a serving store compacts itself now (StoreOptions::compact_while_serving): as at open,
// but with at most 256 MiB live, because the writes wait while the copy is made (about 0.3 s per
// 100 MiB live here), and at least 8 MiB free.
bool CompactionPaysWhileServing(const PageStats& pages);

}  // namespace malachite::storage
