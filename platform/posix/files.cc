#include "platform/files.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace malachite::platform {
namespace {

std::error_code LastError() { return {errno, std::system_category()}; }
int Fd(std::intptr_t handle) { return static_cast<int>(handle); }

}  // namespace

void File::Close() noexcept {
  if (handle_ != kClosed) ::close(Fd(handle_));
  handle_ = kClosed;
}

File File::OpenOrCreate(const std::string& path, std::error_code& ec) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    ec = LastError();
    return {};
  }
  ec.clear();
  return File(fd, path);
}

File::Lock File::TryLockExclusive(std::error_code& ec) {
  // flock(2): two open file descriptions conflict also inside one process, unlike fcntl locks.
  if (::flock(Fd(handle_), LOCK_EX | LOCK_NB) == 0) return Lock::kTaken;
  if (errno == EWOULDBLOCK) return Lock::kHeldElsewhere;
  ec = LastError();
  return Lock::kFailed;
}

std::optional<std::uint64_t> File::Size() const {
  struct stat st {};
  if (::fstat(Fd(handle_), &st) != 0) return std::nullopt;
  return static_cast<std::uint64_t>(st.st_size);
}

bool File::Truncate(std::uint64_t size) {
  return ::ftruncate(Fd(handle_), static_cast<off_t>(size)) == 0;
}

bool File::Allocate(std::uint64_t size) {
  // posix_fallocate gives the file real blocks (an ftruncate'd file would be sparse and hold
  // nothing). On a failure part-way, some file systems keep what they allocated past the old
  // size: the ftruncate gives it back, so a failed allocation never eats the space it found.
  const auto before = Size();
  if (::posix_fallocate(Fd(handle_), 0, static_cast<off_t>(size)) == 0) return true;
  if (before) (void)Truncate(*before);
  return false;
}

std::uint64_t File::DiskRoom() const {
  // fstatvfs, not statvfs(path): it answers also after the directory was unlinked (--in-memory).
  struct statvfs vfs {};
  if (::fstatvfs(Fd(handle_), &vfs) != 0) return 0;
  const std::uint64_t blocks = ::geteuid() == 0 ? vfs.f_bfree : vfs.f_bavail;
  return blocks * vfs.f_frsize;
}

std::error_code SyncPath(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) return LastError();
  std::error_code ec;
  if (::fsync(fd) != 0) ec = LastError();
  ::close(fd);
  return ec;
}

std::string MakeUniqueDir(const std::string& prefix, std::error_code& ec) {
  std::string pattern = prefix + "XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    ec = LastError();
    return {};
  }
  ec.clear();
  return pattern;
}

std::error_code CheckDirWritable(const std::string& dir) {
  if (::access(dir.c_str(), W_OK | R_OK | X_OK) != 0) return LastError();
  return {};
}

bool IsDiskFullError(int code) { return code == ENOSPC || code == EDQUOT; }

}  // namespace malachite::platform
