// Hot backups and restores on real LMDB in temp dirs.
#include "storage/backup.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <thread>

#include "storage/data_dir_lock.h"
#include "tests/support/store_fixture.h"

namespace malachite::storage {
namespace {

using testing::StoreFixture;
using testing::TempDir;

Entity Row(const std::string& pk, const std::string& rk, std::int32_t qty) {
  return Entity{pk, rk, {}, {{"Qty", EdmValue::Int32(qty)}}};
}

void Put(Store& store, const TableInfo& table, const Entity& entity) {
  REQUIRE(store.Write([&](WriteContext& ctx) -> Result<void> {
    Entity e = entity;
    e.timestamp = ctx.NextTimestamp();
    return ctx.PutEntity(table, e);
  }));
}

// "pk/rk=Qty ..." of every entity of `name` in `account`, or "no table".
std::string Contents(Store& store, const std::string& account, const std::string& name) {
  auto view = store.Read();
  REQUIRE(view);
  auto table = (*view)->FindTable(account, name);
  REQUIRE(table);
  if (!*table) return "no table";
  std::string out;
  REQUIRE((*view)->ScanEntities(**table, KeyRange{}, [&](const EntityView& e) {
    Entity d = e.Decode();
    out += d.partition_key + "/" + d.row_key + "=" + std::to_string(d.properties[0].value.integer) +
           " ";
    return true;
  }));
  return out;
}

std::unique_ptr<Store> OpenAt(const std::string& dir) {
  StoreOptions options;
  options.data_dir = dir;
  options.durability = Durability::kNone;
  auto store = Store::Open(options, SystemClock::Instance());
  REQUIRE(store);
  return std::move(*store);
}

}  // namespace

TEST_CASE("backup: a backup holds everything committed before it and opens as a data dir",
          "[storage][backup]") {
  StoreFixture f;
  TableInfo orders = f.CreateTable("acct", "Orders");
  Put(f.store(), orders, Row("p", "1", 1));
  Put(f.store(), orders, Row("p", "2", 2));
  TempDir out;
  auto bytes = f.store().Backup(out.path() + "/b1");
  REQUIRE(bytes);
  CHECK(*bytes == std::filesystem::file_size(out.path() + "/b1/data.mdb"));
  Put(f.store(), orders, Row("p", "3", 3));  // after the backup: not in it
  auto copy = OpenAt(out.path() + "/b1");
  CHECK(Contents(*copy, "acct", "orders") == "p/1=1 p/2=2 ");
}

TEST_CASE("backup: the destination must be new or empty, nothing partial is left on failure",
          "[storage][backup]") {
  StoreFixture f;
  TempDir out;
  std::filesystem::create_directories(out.path() + "/empty");
  CHECK(f.store().Backup(out.path() + "/empty"));
  std::ofstream(out.path() + "/full.txt") << "x";
  std::filesystem::create_directories(out.path() + "/full");
  std::ofstream(out.path() + "/full/file") << "x";
  auto refused = f.store().Backup(out.path() + "/full");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ErrorCode::kInvalidInput);
  CHECK(refused.error().message ==
        "backup destination " + out.path() + "/full exists and is not an empty directory");
  std::size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(out.path())) {
    (void)e;
    ++entries;
  }
  CHECK(entries == 3);  // empty/, full.txt, full/: no staging directory left behind
}

TEST_CASE("backup: taken while a writer commits, it holds every write acknowledged before it",
          "[storage][backup]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "load");
  std::atomic<int> acknowledged{0};
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int i = 0; !stop.load(); ++i) {
      Put(f.store(), t, Row("p", std::to_string(100000 + i), i));
      acknowledged.store(i + 1);
    }
  });
  while (acknowledged.load() < 200) std::this_thread::yield();
  const int before = acknowledged.load();
  TempDir out;
  REQUIRE(f.store().Backup(out.path() + "/b"));
  stop.store(true);
  writer.join();
  auto copy = OpenAt(out.path() + "/b");
  auto view = copy->Read();
  REQUIRE(view);
  auto table = (*view)->FindTable("acct", "load");
  REQUIRE(table);
  REQUIRE(*table);
  int count = 0;
  REQUIRE((*view)->ScanEntities(**table, KeyRange{}, [&](const EntityView&) {
    ++count;
    return true;
  }));
  CHECK(count >= before);
}

TEST_CASE("restore: replaces a stopped data dir's data, a running store's dir is refused",
          "[storage][backup]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "t");
  Put(f.store(), t, Row("p", "1", 7));
  TempDir out;
  REQUIRE(f.store().Backup(out.path() + "/b"));

  auto in_use = RestoreDataDir(out.path() + "/b", f.dir() + "/data");
  REQUIRE_FALSE(in_use);
  CHECK(in_use.error().message ==
        "data directory " + f.dir() + "/data: " + std::string(kDataDirInUse));

  const std::string target = out.path() + "/restored";
  {
    auto other = OpenAt(target);
    TableInfo u = [&] {
      std::optional<TableInfo> info;
      REQUIRE(other->Write([&](WriteContext& ctx) -> Result<void> {
        info = **ctx.CreateTable("acct", "other");
        return {};
      }));
      return *info;
    }();
    Put(*other, u, Row("x", "y", 1));
  }
  auto restored = RestoreDataDir(out.path() + "/b", target);
  REQUIRE(restored);
  auto reopened = OpenAt(target);
  CHECK(Contents(*reopened, "acct", "t") == "p/1=7 ");
  CHECK(Contents(*reopened, "acct", "other") == "no table");
}

TEST_CASE("restore: a directory without a store's data.mdb is refused before anything changes",
          "[storage][backup]") {
  TempDir out;
  std::filesystem::create_directories(out.path() + "/notabackup");
  auto missing = RestoreDataDir(out.path() + "/notabackup", out.path() + "/data");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message == out.path() + "/notabackup holds no data.mdb (not a backup)");
  std::ofstream(out.path() + "/notabackup/data.mdb") << "garbage";
  auto garbage = RestoreDataDir(out.path() + "/notabackup", out.path() + "/data");
  REQUIRE_FALSE(garbage);
  CHECK(garbage.error().code == ErrorCode::kInvalidInput);
  CHECK_FALSE(std::filesystem::exists(out.path() + "/data/data.mdb"));
}

}  // namespace malachite::storage
