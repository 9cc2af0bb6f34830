// The lock that makes a data directory one store's: malachite.lock, locked exclusively
// (platform::File::TryLockExclusive: flock(2) on POSIX, LockFileEx on Windows) while a Store (or
// an offline tool such as restore) has the directory open.
#pragma once

#include <string>
#include <string_view>

#include "common/error.h"
#include "platform/files.h"

namespace malachite::storage {

// The message a locked directory fails with ("data directory <dir>: in use by another running
// Malachite store"); tools match on kDataDirInUse to explain what to do instead.
inline constexpr std::string_view kDataDirInUse = "in use by another running Malachite store";

// Holds the exclusive lock of a data directory for its lifetime; closing the lock file (or the
// process's death) releases it. Move-only.
class DataDirLock {
 public:
  // Takes the lock of `dir` (which must exist). Errors: kInternalError "data directory <dir>: in
  // use by another running Malachite store" when a store (this process's or another's) holds it,
  // or naming the cause when the lock file cannot be opened.
  static Result<DataDirLock> Take(const std::string& dir);
  DataDirLock(DataDirLock&&) noexcept = default;
  DataDirLock& operator=(DataDirLock&&) = delete;
  DataDirLock(const DataDirLock&) = delete;
  DataDirLock& operator=(const DataDirLock&) = delete;
  ~DataDirLock() = default;

 private:
  explicit DataDirLock(platform::File file) : file_(std::move(file)) {}
  platform::File file_;
};

}  // namespace malachite::storage
