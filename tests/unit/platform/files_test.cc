#include "platform/files.h"

#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <string>

#include "tests/support/temp_dir.h"

namespace malachite::platform {
namespace {

using testing::TempDir;

TEST_CASE("platform files: a second open of a locked file finds the lock held, until it closes",
          "[platform]") {
  TempDir dir("platform");
  const std::string path = dir.path() + "/lock";
  std::error_code ec;
  File first = File::OpenOrCreate(path, ec);
  REQUIRE(first.is_open());
  CHECK(std::filesystem::exists(path));
  REQUIRE(first.TryLockExclusive(ec) == File::Lock::kTaken);
  {
    File second = File::OpenOrCreate(path, ec);
    REQUIRE(second.is_open());
    CHECK(second.TryLockExclusive(ec) == File::Lock::kHeldElsewhere);
  }
  first = File();  // closing releases the lock
  File third = File::OpenOrCreate(path, ec);
  CHECK(third.TryLockExclusive(ec) == File::Lock::kTaken);
}

TEST_CASE("platform files: a file opened in a missing directory fails with the system's reason",
          "[platform]") {
  TempDir dir("platform");
  std::error_code ec;
  File file = File::OpenOrCreate(dir.path() + "/missing/file", ec);
  CHECK_FALSE(file.is_open());
  CHECK(ec);
  CHECK_FALSE(ec.message().empty());
}

TEST_CASE("platform files: allocate grows the file to the size, truncate shrinks it",
          "[platform]") {
  TempDir dir("platform");
  std::error_code ec;
  File file = File::OpenOrCreate(dir.path() + "/reserve", ec);
  REQUIRE(file.is_open());
  CHECK(file.Size() == 0u);
  REQUIRE(file.Allocate(1u << 20));
  CHECK(file.Size() == (1u << 20));
  CHECK(std::filesystem::file_size(dir.path() + "/reserve") == (1u << 20));
  REQUIRE(file.Allocate(4096));  // smaller than the file: nothing to do
  CHECK(file.Size() == (1u << 20));
  REQUIRE(file.Truncate(0));
  CHECK(file.Size() == 0u);
  CHECK(file.DiskRoom() > 0);
}

TEST_CASE("platform files: unique directories are new and distinct, under the prefix given",
          "[platform]") {
  TempDir dir("platform");
  std::error_code ec;
  const std::string a = MakeUniqueDir(dir.path() + "/x-", ec);
  REQUIRE_FALSE(a.empty());
  const std::string b = MakeUniqueDir(dir.path() + "/x-", ec);
  REQUIRE_FALSE(b.empty());
  CHECK(a != b);
  CHECK(std::filesystem::is_directory(a));
  CHECK(std::filesystem::is_directory(b));
  CHECK(a.rfind(dir.path() + "/x-", 0) == 0);
  CHECK(a.size() == dir.path().size() + 3 + 6);
  CHECK(MakeUniqueDir(dir.path() + "/missing/x-", ec).empty());
  CHECK(ec);
}

TEST_CASE("platform files: a writable directory passes the check, a missing one names why",
          "[platform]") {
  TempDir dir("platform");
  CHECK_FALSE(CheckDirWritable(dir.path()));
  CHECK(CheckDirWritable(dir.path() + "/missing"));
}

TEST_CASE("platform files: syncing a file and its directory succeeds, a missing file fails",
          "[platform]") {
  TempDir dir("platform");
  std::error_code ec;
  { File file = File::OpenOrCreate(dir.path() + "/synced", ec); }
  CHECK_FALSE(SyncPath(dir.path() + "/synced", false));
  CHECK_FALSE(SyncPath(dir.path(), true));
  CHECK(SyncPath(dir.path() + "/missing", false));
}

TEST_CASE("platform files: the system's disk-full codes are recognised, others are not",
          "[platform]") {
#ifdef _WIN32
  CHECK(IsDiskFullError(112));      // ERROR_DISK_FULL
  CHECK(IsDiskFullError(39));       // ERROR_HANDLE_DISK_FULL
  CHECK(IsDiskFullError(1295));     // ERROR_DISK_QUOTA_EXCEEDED
  CHECK_FALSE(IsDiskFullError(5));  // ERROR_ACCESS_DENIED
#else
  CHECK(IsDiskFullError(ENOSPC));
  CHECK(IsDiskFullError(EDQUOT));
  CHECK_FALSE(IsDiskFullError(EIO));
#endif
  CHECK_FALSE(IsDiskFullError(0));
}

}  // namespace
}  // namespace malachite::platform
