// The lock that makes a data directory one store's: malachite.lock, flock(2)ed while a Store (or
// an offline tool such as restore) has the directory open.
#pragma once

#include <string>
#include <string_view>

#include "common/error.h"

namespace malachite::storage {

// The message a locked directory fails with ("data directory <dir>: in use by another running
// Malachite store"); tools match on kDataDirInUse to explain what to do instead.
inline constexpr std::string_view kDataDirInUse = "in use by another running Malachite store";

// Takes the exclusive lock of `dir` (which must exist) and returns the lock file's descriptor;
// closing it releases the lock. Errors: kInternalError "data directory <dir>: in use by another
// running Malachite store" when a store (this process's or another's) holds it, or naming the
// cause when the lock file cannot be opened.
Result<int> LockDataDir(const std::string& dir);

// Holds LockDataDir(dir) for its lifetime. Move-only.
class DataDirLock {
 public:
  static Result<DataDirLock> Take(const std::string& dir);
  DataDirLock(DataDirLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  DataDirLock& operator=(DataDirLock&&) = delete;
  DataDirLock(const DataDirLock&) = delete;
  DataDirLock& operator=(const DataDirLock&) = delete;
  ~DataDirLock();

 private:
  explicit DataDirLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace malachite::storage
