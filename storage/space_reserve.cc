#include "storage/space_reserve.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace malachite::storage {
namespace {

constexpr std::uint64_t kSmallestTake = 64u << 10;
constexpr std::uint64_t kPage = 4096;

}  // namespace

namespace {

std::string ReservePath(const std::string& dir) { return dir + "/space.reserve"; }

}  // namespace

void SpaceReserve::RemoveLeftover(const std::string& dir) { ::unlink(ReservePath(dir).c_str()); }

Result<std::unique_ptr<SpaceReserve>> SpaceReserve::Open(const std::string& dir,
                                                         std::uint64_t bytes) {
  const std::string path = ReservePath(dir);
  const bool existed = ::access(path.c_str(), F_OK) == 0;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return Fail(ErrorCode::kInternalError,
                "data directory " + dir + ": cannot create space.reserve: " + std::strerror(errno));
  }
  std::unique_ptr<SpaceReserve> reserve(new SpaceReserve(fd, bytes));
  // Whatever an earlier run held is the reserve's until shown otherwise: Allocate keeps it.
  struct stat st {};
  if (::fstat(fd, &st) == 0) reserve->held_ = static_cast<std::uint64_t>(st.st_size);
  if (reserve->held_ > bytes) {
    if (::ftruncate(fd, static_cast<off_t>(bytes)) == 0) reserve->held_ = bytes;
  }
  // Emulator: an empty reserve file is what a run killed during a space alarm leaves. Taking the
  // reserve back from the room the alarm gave away would leave deletes without it again.
  if (existed && reserve->held_ == 0 && reserve->DiskRoom() < 2 * bytes) return reserve;
  reserve->TakeWhatFits();
  return reserve;
}

SpaceReserve::~SpaceReserve() { ::close(fd_); }

bool SpaceReserve::Allocate(std::uint64_t bytes) {
  if (bytes <= held_) return true;
  // posix_fallocate gives the file real blocks (an ftruncate'd file would be sparse and hold
  // nothing). On a failure part-way, some file systems keep what they allocated past the old
  // size: the ftruncate gives it back, so a failed take never eats the space it found.
  const int rc = ::posix_fallocate(fd_, 0, static_cast<off_t>(bytes));
  if (rc == 0) {
    held_ = bytes;
    return true;
  }
  (void)::ftruncate(fd_, static_cast<off_t>(held_));
  return false;
}

bool SpaceReserve::TakeAll() { return Allocate(wanted_); }

std::uint64_t SpaceReserve::TakeWhatFits() {
  // Aim at the room the file system reports (whole pages), so a reserve given back and taken
  // again loses only what the deletes used; halve when the file system's own bookkeeping needs
  // more than that.
  const std::uint64_t room = (held_ + DiskRoom()) / kPage * kPage;
  for (std::uint64_t bytes = std::min(wanted_, room); bytes > held_ && bytes >= kSmallestTake;
       bytes /= 2) {
    if (Allocate(bytes)) break;
  }
  return held_;
}

std::uint64_t SpaceReserve::DiskRoom() const {
  struct statvfs vfs {};
  if (::fstatvfs(fd_, &vfs) != 0) return 0;
  const std::uint64_t blocks = ::geteuid() == 0 ? vfs.f_bfree : vfs.f_bavail;
  return blocks * vfs.f_frsize;
}

std::uint64_t SpaceReserve::Release() {
  const std::uint64_t released = held_;
  // ftruncate to 0 frees the blocks at once, also when the directory was unlinked (--in-memory).
  if (::ftruncate(fd_, 0) == 0) held_ = 0;
  return released;
}

}  // namespace malachite::storage
