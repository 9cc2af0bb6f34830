// The pages of data.mdb: how many hold data and how many are free (storage/FORMAT.md, "Getting
// disk space back"). LMDB never gives pages back to the file system: deleted data leaves free
// pages inside the file, which later writes reuse and `malachite compact` removes.
#pragma once

#include <lmdb.h>

#include <cstdint>

#include "common/error.h"

namespace malachite::storage {

struct PageStats {
  std::uint64_t page_size = 0;     // bytes per page
  std::uint64_t pages_total = 0;   // the pages of data.mdb in use by LMDB: its last page + 1
  std::uint64_t pages_free = 0;    // of those, the pages on LMDB's free list
  std::uint64_t free_records = 0;  // records of the free list (one per commit that freed pages)
  std::uint64_t pages_live() const {
    return pages_total > pages_free ? pages_total - pages_free : 0;
  }
};

// Reads the free list (LMDB's database 0) in a read transaction of its own, and the last page
// of the last commit. Costs one step per free-list record (the first page of each), so it grows
// with the churn a store has seen: callers that poll it bound how often (LmdbStore caches it).
// REQUIRES: the caller is inside the map's gate (MapGate::Pass) or holds the writers' lock.
// Errors: kInternalError.
Result<PageStats> ReadPageStats(MDB_env* env);

// The bytes of the pages on LMDB's free list (a write may reuse those freed before the last
// commit, unless a reader of an older snapshot still sees them): ReadPageStats's pages_free in
// bytes. Same REQUIRES and errors.
Result<std::uint64_t> FreeListBytes(MDB_env* env);

}  // namespace malachite::storage
