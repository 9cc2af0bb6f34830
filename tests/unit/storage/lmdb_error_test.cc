#include "storage/lmdb_error.h"

#include <lmdb.h>

#include <catch2/catch.hpp>
#include <cerrno>

namespace malachite::storage {
namespace {

std::string Summary(const Error& error) {
  return std::string(error.AzureCode()) + " " + std::to_string(error.HttpStatus()) + " | " +
         error.detail;
}

TEST_CASE(
    "lmdb_error: a full map or disk, and a short write, answer 409 InsufficientAccountResources",
    "[storage]") {
  CHECK(Summary(LmdbError(MDB_MAP_FULL, "commit")) ==
        "InsufficientAccountResources 409 | commit: MDB_MAP_FULL: Environment mapsize limit "
        "reached");
  CHECK(Summary(LmdbError(ENOSPC, "commit")) ==
        "InsufficientAccountResources 409 | commit: No space left on device");
  CHECK(Summary(LmdbError(EDQUOT, "commit")) ==
        "InsufficientAccountResources 409 | commit: Disk quota exceeded");
  // What a commit on a full tmpfs returns (a short pwrite).
  CHECK(Summary(LmdbError(EIO, "commit")) ==
        "InsufficientAccountResources 409 | commit: Input/output error");
  CHECK(LmdbError(EIO, "commit").message.find("nothing was written") != std::string::npos);
}

TEST_CASE("lmdb_error: a full disk is ENOSPC, EDQUOT or a short write's EIO, not a full map",
          "[storage]") {
  CHECK(IsDiskFull(ENOSPC));
  CHECK(IsDiskFull(EDQUOT));
  CHECK(IsDiskFull(EIO));
  CHECK_FALSE(IsDiskFull(MDB_MAP_FULL));
  CHECK_FALSE(IsDiskFull(0));
}

TEST_CASE("lmdb_error: other codes are internal errors naming the operation", "[storage]") {
  const Error error = LmdbError(MDB_CORRUPTED, "put entity");
  CHECK(error.code == ErrorCode::kInternalError);
  CHECK(error.message == "storage: put entity: MDB_CORRUPTED: Located page was wrong type");
}

}  // namespace
}  // namespace malachite::storage
