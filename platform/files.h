// Files and disks: the calls whose system interfaces differ between POSIX and Windows. One
// implementation per system (posix/files.cc, windows/files.cc); CMake compiles the one of the
// target, so no room of the server carries a platform #ifdef. Depends on nothing but the
// standard library: errors are std::error_code of the system's own category (errno values on
// POSIX, Win32 error codes on Windows), whose message() is the system's text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <system_error>

namespace malachite::platform {

// An open file, closed on destruction; never inherited by child processes. Move-only.
class File {
 public:
  File() = default;
  ~File();
  File(File&& other) noexcept;
  File& operator=(File&& other) noexcept;
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  // Opens `path` for reading and writing, creating it (mode 0644 on POSIX) when it is missing.
  static File OpenOrCreate(const std::string& path, std::error_code& ec);
  bool is_open() const { return handle_ != kClosed; }

  enum class Lock { kTaken, kHeldElsewhere, kFailed };
  // Takes the exclusive lock of the whole file without waiting. kHeldElsewhere when another File
  // holds it, in this process or another; the lock ends when this File closes (or its process
  // dies). kFailed sets `ec`.
  Lock TryLockExclusive(std::error_code& ec);

  std::optional<std::uint64_t> Size() const;
  bool Truncate(std::uint64_t size);
  // Gives [0, size) of the file real disk blocks, not a sparse hole, so that later writes there
  // cannot fail for lack of room. False when the disk has no room (the file keeps its old size).
  bool Allocate(std::uint64_t size);
  // Bytes free on the file system holding the file, for this process (root, on POSIX, may use
  // the blocks reserved for it); 0 when the system cannot tell.
  std::uint64_t DiskRoom() const;

 private:
  static constexpr std::intptr_t kClosed = -1;
  File(std::intptr_t handle, std::string path) : handle_(handle), path_(std::move(path)) {}
  void Close() noexcept;

  std::intptr_t handle_ = kClosed;  // a descriptor (POSIX) or a HANDLE (Windows)
  std::string path_;                // Windows asks the disk's free space by path
};

// Makes what was written to `path` durable (fsync). For a directory, its entries: on Windows a
// directory has nothing to flush (NTFS journals its metadata), and this succeeds.
std::error_code SyncPath(const std::string& path, bool directory);

// Creates a new directory named `prefix` followed by six random characters and returns its
// path; empty with `ec` set when it cannot.
std::string MakeUniqueDir(const std::string& prefix, std::error_code& ec);

// Whether this process may create, read and remove files in the directory `dir`: the error
// (e.g. permission denied, read-only file system) when it may not.
std::error_code CheckDirWritable(const std::string& dir);

// Whether an error code of a write or a sync (LMDB passes the system's own: errno on POSIX,
// GetLastError() on Windows) means the disk or the user's quota is full.
bool IsDiskFullError(int code);

}  // namespace malachite::platform
