#include "storage/data_dir_lock.h"

namespace malachite::storage {

// LMDB: two environments on one file inside a process corrupt its locks, and a second process
// would break the writer's in-memory state (timestamps); a lock on a side file refuses both.
Result<DataDirLock> DataDirLock::Take(const std::string& dir) {
  std::error_code ec;
  platform::File file = platform::File::OpenOrCreate(dir + "/malachite.lock", ec);
  if (!file.is_open()) {
    return Fail(ErrorCode::kInternalError,
                "data directory " + dir + ": cannot open lock file: " + ec.message());
  }
  switch (file.TryLockExclusive(ec)) {
    case platform::File::Lock::kTaken:
      return DataDirLock(std::move(file));
    case platform::File::Lock::kHeldElsewhere:
      return Fail(ErrorCode::kInternalError,
                  "data directory " + dir + ": " + std::string(kDataDirInUse));
    case platform::File::Lock::kFailed:
      break;
  }
  return Fail(ErrorCode::kInternalError,
              "data directory " + dir + ": cannot lock: " + ec.message());
}

}  // namespace malachite::storage
