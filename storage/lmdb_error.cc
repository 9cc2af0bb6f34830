#include "storage/lmdb_error.h"

#include <lmdb.h>

#include <cerrno>
#include <string>

#include "platform/files.h"

namespace malachite::storage {

std::string LmdbErrorText(int rc) { return mdb_strerror(rc); }

bool IsDiskFull(int rc) { return platform::IsDiskFullError(rc) || rc == EIO; }

Error LmdbError(int rc, std::string_view what) {
  std::string op(what);
  // LMDB: MDB_MAP_FULL means the map is exhausted: below its maximum (StoreOptions::map_size_bytes)
  // the writer grows it and runs the write again (MapFullErrorsOnThisThread tells it), so this is
  // an answer only at the maximum. ENOSPC and EDQUOT come from the write(2)/fsync(2) of a commit.
  // In every case the transaction is not applied (LMDB writes the meta page last), so nothing
  // acknowledged is lost.
  if (rc == MDB_MAP_FULL) {
    ++map_full_errors_on_this_thread;
    return Error{ErrorCode::kInsufficientAccountResources,
                 "The storage is full: the LMDB map size is exhausted; nothing was written.",
                 op + ": " + mdb_strerror(rc)};
  }
  if (platform::IsDiskFullError(rc)) {
    return Error{ErrorCode::kInsufficientAccountResources,
                 "The storage is full: no space left on the data disk; nothing was written.",
                 op + ": " + mdb_strerror(rc)};
  }
  // LMDB: a commit's pwrite(2) that writes less than asked (what a full file system, tmpfs
  // included, does to the last page that fits) is reported as EIO, not ENOSPC. A failing disk
  // reports EIO too; both leave the data as it was, so both get the answer that tells a client
  // "nothing was written, do not retry at once", and the log keeps the errno text.
  if (rc == EIO) {
    return Error{ErrorCode::kInsufficientAccountResources,
                 "The storage is full: the data disk did not take the write (no space left, or "
                 "an I/O error); nothing was written.",
                 op + ": " + mdb_strerror(rc)};
  }
  std::string message = "storage: " + op + ": " + mdb_strerror(rc);
  return Error{ErrorCode::kInternalError, message, message};
}

}  // namespace malachite::storage
