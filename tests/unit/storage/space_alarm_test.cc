#include "storage/space_alarm.h"

#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "common/clock.h"
#include "storage/space_reserve.h"
#include "storage/store.h"
#include "tests/support/temp_dir.h"

namespace malachite::storage {
namespace {

using testing::TempDir;

std::uint64_t AllocatedBytes(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return static_cast<std::uint64_t>(st.st_blocks) * 512;
}

// A tmpfs of `bytes` mounted on a temp dir for the test's life; mounted() is false (and the test
// returns early, saying why) where mounting is not allowed (not root, no CAP_SYS_ADMIN).
class SmallDisk {
 public:
  explicit SmallDisk(std::uint64_t bytes) : dir_("malachite-small-disk") {
    const std::string options = "size=" + std::to_string(bytes);
    mounted_ = ::mount("tmpfs", dir_.path().c_str(), "tmpfs", 0, options.c_str()) == 0;
    if (!mounted_) WARN("cannot mount a tmpfs here (needs root): the full-disk case is skipped");
  }
  ~SmallDisk() {
    if (mounted_) ::umount2(dir_.path().c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  const std::string& path() const { return dir_.path(); }

 private:
  TempDir dir_;
  bool mounted_ = false;
};

Entity OneKiB(int i) {
  char row[16];
  std::snprintf(row, sizeof(row), "r%06d", i);
  return Entity{"p", row, {}, {{"v", EdmValue::String(std::string(1000, 'x'))}}};
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

TEST_CASE(
    "space_alarm: on a full disk deletes commit one by one, other writes are refused, and "
    "the freed pages take new inserts",
    "[storage]") {
  SmallDisk disk(8u << 20);
  if (!disk.mounted()) return;
  StoreOptions options;
  options.data_dir = disk.path() + "/data";
  options.durability = Durability::kNone;
  options.space_reserve_bytes = 1u << 20;
  auto opened = Store::Open(options, SystemClock::Instance());
  REQUIRE(opened);
  Store& store = **opened;
  TableInfo table;
  REQUIRE(store.Write([&](WriteContext& ctx) -> Result<void> {
    auto created = ctx.CreateTable("acct", "full");
    if (!created) return tl::unexpected(created.error());
    table = **created;
    return {};
  }));

  int filled = 0;
  Error full;
  for (;; ++filled) {
    REQUIRE(filled < 20000);
    Entity entity = OneKiB(filled);
    auto ok = store.Write([&](WriteContext& ctx) -> Result<void> {
      auto inserted = ctx.InsertEntity(table, entity);
      if (!inserted) return tl::unexpected(inserted.error());
      return {};
    });
    if (!ok) {
      full = ok.error();
      break;
    }
  }
  CHECK(full.code == ErrorCode::kInsufficientAccountResources);
  CHECK(full.detail.find("space alarm raised") != std::string::npos);
  CHECK(filled > 3000);

  // Without the alarm's reserve every one of these failed: LMDB needs fresh pages to delete.
  int deleted = 0;
  for (int i = 0; i < 40; ++i) {
    auto ok = store.Write([&](WriteContext& ctx) -> Result<void> {
      auto gone = ctx.DeleteEntity(table, "p", OneKiB(i).row_key);
      if (!gone) return tl::unexpected(gone.error());
      return {};
    });
    if (ok) ++deleted;
  }
  CHECK(deleted == 40);

  // 40 deletes freed less than the alarm waits for: writes that add data are still refused.
  Entity late = OneKiB(900000);
  auto refused = store.Write([&](WriteContext& ctx) -> Result<void> {
    auto inserted = ctx.InsertEntity(table, late);
    if (!inserted) return tl::unexpected(inserted.error());
    return {};
  });
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ErrorCode::kInsufficientAccountResources);
  CHECK(refused.error().detail.find("space alarm") != std::string::npos);

  // A third of the table goes, in one write: the alarm clears and new inserts fit.
  REQUIRE(store.Write([&](WriteContext& ctx) -> Result<void> {
    for (int i = 40; i < filled / 3; ++i) {
      auto gone = ctx.DeleteEntity(table, "p", OneKiB(i).row_key);
      if (!gone) return tl::unexpected(gone.error());
    }
    return {};
  }));
  for (int i = 0; i < 200; ++i) {
    Entity entity = OneKiB(100000 + i);
    auto ok = store.Write([&](WriteContext& ctx) -> Result<void> {
      auto inserted = ctx.InsertEntity(table, entity);
      if (!inserted) return tl::unexpected(inserted.error());
      return {};
    });
    INFO("insert " << i << ": " << (ok ? "" : ok.error().detail));
    REQUIRE(ok);
  }
}

}  // namespace
}  // namespace malachite::storage
