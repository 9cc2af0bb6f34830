#include "storage/space_reserve.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "tests/support/small_disk.h"
#include "tests/support/temp_dir.h"

namespace malachite::storage {
namespace {

using testing::SmallDisk;
using testing::TempDir;

std::uint64_t AllocatedBytes(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return static_cast<std::uint64_t>(st.st_blocks) * 512;
}
TEST_CASE("space_reserve: Release gives the blocks back and TakeAll takes them again",
          "[storage]") {
  TempDir dir("malachite-reserve");
  auto reserve = SpaceReserve::Open(dir.path(), 1u << 20);
  REQUIRE(reserve);
  const std::string file = dir.path() + "/space.reserve";
  CHECK((*reserve)->held() == (1u << 20));
  CHECK(AllocatedBytes(file) >= (1u << 20));
  CHECK((*reserve)->Release() == (1u << 20));
  CHECK((*reserve)->held() == 0);
  CHECK(AllocatedBytes(file) == 0);
  CHECK((*reserve)->TakeAll());
  CHECK(AllocatedBytes(file) >= (1u << 20));
}

TEST_CASE("space_reserve: on a disk without room for all of it, the reserve takes what fits",
          "[storage]") {
  SmallDisk disk(1536u << 10);
  if (!disk.mounted()) return;
  auto reserve = SpaceReserve::Open(disk.path(), 4u << 20);
  REQUIRE(reserve);
  const std::uint64_t held = (*reserve)->held();
  CHECK(held > (1u << 20));  // all the disk's room, in whole pages
  CHECK(held <= (1536u << 10));
  CHECK((*reserve)->DiskRoom() < 4096);
  CHECK_FALSE((*reserve)->TakeAll());
  CHECK((*reserve)->held() == held);  // a failed take keeps what was held
}

}  // namespace
}  // namespace malachite::storage
