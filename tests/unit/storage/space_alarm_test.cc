#include "storage/space_alarm.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "common/clock.h"
#include "storage/space_reserve.h"
#include "storage/store.h"
#include "tests/support/small_disk.h"
#include "tests/support/temp_dir.h"

namespace malachite::storage {
namespace {

using testing::SmallDisk;
using testing::TempDir;

Entity OneKiB(int i) {
  char row[16];
  std::snprintf(row, sizeof(row), "r%06d", i);
  return Entity{"p", row, {}, {{"v", EdmValue::String(std::string(1000, 'x'))}}};
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
