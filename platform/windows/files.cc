#include "platform/files.h"

#include <windows.h>

#include <filesystem>
#include <random>

#include "platform/windows/wide.h"

namespace malachite::platform {
namespace {

std::error_code LastError() { return {static_cast<int>(::GetLastError()), std::system_category()}; }
// ERROR_DISK_QUOTA_EXCEEDED, which mingw-w64's winerror.h lacks.
constexpr int kDiskQuotaExceeded = 1295;

HANDLE H(std::intptr_t handle) { return reinterpret_cast<HANDLE>(handle); }

bool SetEndOfFileTo(HANDLE h, std::uint64_t size) {
  FILE_END_OF_FILE_INFO eof{};
  eof.EndOfFile.QuadPart = static_cast<LONGLONG>(size);
  return ::SetFileInformationByHandle(h, FileEndOfFileInfo, &eof, sizeof eof) != 0;
}

}  // namespace

void File::Close() noexcept {
  if (handle_ != kClosed) ::CloseHandle(H(handle_));
  handle_ = kClosed;
}

File File::OpenOrCreate(const std::string& path, std::error_code& ec) {
  // Shared for reading, writing and deleting, as a POSIX file is: the lock is LockFileEx's, not
  // the sharing mode's. Default security attributes: the handle is not inherited.
  HANDLE h = ::CreateFileW(Wide(path).c_str(), GENERIC_READ | GENERIC_WRITE,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                           OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    ec = LastError();
    return {};
  }
  ec.clear();
  return File(reinterpret_cast<std::intptr_t>(h), path);
}

File::Lock File::TryLockExclusive(std::error_code& ec) {
  // LockFileEx locks belong to the handle: a second handle conflicts also inside one process,
  // as flock(2) does on POSIX. The system releases them when the handle closes or the process
  // dies.
  OVERLAPPED at{};
  if (::LockFileEx(H(handle_), LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, MAXDWORD,
                   MAXDWORD, &at)) {
    return Lock::kTaken;
  }
  if (::GetLastError() == ERROR_LOCK_VIOLATION) return Lock::kHeldElsewhere;
  ec = LastError();
  return Lock::kFailed;
}

std::optional<std::uint64_t> File::Size() const {
  LARGE_INTEGER size{};
  if (!::GetFileSizeEx(H(handle_), &size)) return std::nullopt;
  return static_cast<std::uint64_t>(size.QuadPart);
}

bool File::Truncate(std::uint64_t size) { return SetEndOfFileTo(H(handle_), size); }

bool File::Allocate(std::uint64_t size) {
  // NTFS gives a file that is not sparse (ours are not) its clusters when its end moves out:
  // SetEndOfFile reserves the disk space at once, and fails with ERROR_DISK_FULL when there is
  // none. Emulator: under Wine it is an ftruncate, which leaves a hole on Linux file systems, so
  // the space reserve holds no blocks there; Windows itself is what the reserve is for.
  const auto before = Size();
  if (!before) return false;
  if (size <= *before) return true;
  if (SetEndOfFileTo(H(handle_), size)) return true;
  (void)Truncate(*before);
  return false;
}

std::uint64_t File::DiskRoom() const {
  const std::wstring dir = std::filesystem::path(Wide(path_)).parent_path().wstring();
  ULARGE_INTEGER available{};
  if (!::GetDiskFreeSpaceExW(dir.empty() ? L"." : dir.c_str(), &available, nullptr, nullptr)) {
    return 0;
  }
  return available.QuadPart;
}

std::error_code SyncPath(const std::string& path, bool directory) {
  if (directory) return {};
  // FlushFileBuffers needs a handle with write access.
  HANDLE h = ::CreateFileW(Wide(path).c_str(), GENERIC_READ | GENERIC_WRITE,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                           OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) return LastError();
  std::error_code ec;
  if (!::FlushFileBuffers(h)) ec = LastError();
  ::CloseHandle(h);
  return ec;
}

std::string MakeUniqueDir(const std::string& prefix, std::error_code& ec) {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device seed;
  std::mt19937 random(seed());
  std::uniform_int_distribution<std::size_t> pick(0, sizeof kAlphabet - 2);
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string path = prefix;
    for (int i = 0; i < 6; ++i) path += kAlphabet[pick(random)];
    if (::CreateDirectoryW(Wide(path).c_str(), nullptr)) {
      ec.clear();
      return path;
    }
    if (::GetLastError() != ERROR_ALREADY_EXISTS) break;
  }
  ec = LastError();
  return {};
}

std::error_code CheckDirWritable(const std::string& dir) {
  // Windows' access checks are ACLs, which _waccess does not read: create (and so delete) a
  // probe file instead, which is exactly what the store will do.
  const std::string probe = dir + "\\.malachite-probe-" + std::to_string(::GetCurrentProcessId());
  HANDLE h =
      ::CreateFileW(Wide(probe).c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr, CREATE_ALWAYS,
                    FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, nullptr);
  if (h == INVALID_HANDLE_VALUE) return LastError();
  ::CloseHandle(h);
  return {};
}

bool IsDiskFullError(int code) {
  return code == ERROR_DISK_FULL || code == ERROR_HANDLE_DISK_FULL || code == kDiskQuotaExceeded;
}

}  // namespace malachite::platform
