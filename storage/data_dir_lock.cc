#include "storage/data_dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace malachite::storage {

// LMDB: two environments on one file inside a process corrupt its locks, and a second process
// would break the writer's in-memory state (timestamps); an flock on a side file refuses both.
Result<int> LockDataDir(const std::string& dir) {
  std::string path = dir + "/malachite.lock";
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return Fail(ErrorCode::kInternalError,
                "data directory " + dir + ": cannot open lock file: " + std::strerror(errno));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK) {
      return Fail(ErrorCode::kInternalError,
                  "data directory " + dir + ": " + std::string(kDataDirInUse));
    }
    return Fail(ErrorCode::kInternalError,
                "data directory " + dir + ": cannot lock: " + std::strerror(err));
  }
  return fd;
}

Result<DataDirLock> DataDirLock::Take(const std::string& dir) {
  auto fd = LockDataDir(dir);
  if (!fd) return tl::unexpected<Error>(fd.error());
  return DataDirLock(*fd);
}

DataDirLock::~DataDirLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace malachite::storage
