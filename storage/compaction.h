// Giving the disk back: compacting a stopped data directory (storage/FORMAT.md, "Getting disk
// space back"). LMDB reuses the pages deleted data leaves behind but never shrinks data.mdb;
// compaction rewrites it with the live pages only, packed in key order.
#pragma once

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

// Whether a store with these pages is compacted when it opens (StoreOptions::compact_at_open):
// at least a quarter of data.mdb and 16 MiB are free, and at most 1 GiB is live, so the copy costs
// the start a second or two at most (storage/FORMAT.md, "Getting disk space back").
bool CompactionPaysAtOpen(const PageStats& pages);

// "name=entries ..." for the main database and every named database of the environment in
// `file` (a data.mdb), opened read-only without a lock file. Errors: kInvalidInput (not an LMDB
// environment), kInternalError.
Result<std::string> CensusOf(const std::string& file);

}  // namespace malachite::storage
