// The one place where LMDB return codes become Malachite errors.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/error.h"

namespace malachite::storage {

// Translates an LMDB return code (or an errno LMDB passed through) into an Error. `what` names the
// operation for the message, e.g. "put entity".
//   MDB_MAP_FULL, ENOSPC, EDQUOT, EIO -> kInsufficientAccountResources ("... disk or map
//                                        full ..."; detail: `what` and LMDB's text)
//   anything else                -> kInternalError with mdb_strerror's text.
// REQUIRES: rc != 0 (MDB_SUCCESS); MDB_NOTFOUND is absence and callers handle it before this.
Error LmdbError(int rc, std::string_view what);

// True for the return codes that mean the data disk did not take a commit's pages: ENOSPC,
// EDQUOT, and EIO (LMDB's report of a short write, what a full file system does to the last page
// that fits). Not MDB_MAP_FULL: a full map is address space, not disk (lmdb_error.cc).
bool IsDiskFull(int rc);

// How many MDB_MAP_FULL codes LmdbError has translated on the calling thread, ever. A write
// transaction belongs to one thread, so the committing thread compares the count before and after
// a request to learn whether LMDB found the map full during it, whatever error the request made
// of that (storage/FORMAT.md, "The map grows as needed").
inline thread_local std::uint64_t map_full_errors_on_this_thread = 0;  // LmdbError's count
inline std::uint64_t MapFullErrorsOnThisThread() noexcept { return map_full_errors_on_this_thread; }

// LMDB's text for `rc` (mdb_strerror), for messages that carry their own context.
std::string LmdbErrorText(int rc);

// Success for rc == 0, otherwise LmdbError(rc, what).
inline Result<void> LmdbCheck(int rc, std::string_view what) {
  if (rc == 0) return {};
  return tl::unexpected<Error>(LmdbError(rc, what));
}

}  // namespace malachite::storage
