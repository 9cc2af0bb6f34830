#include <catch2/catch.hpp>
#include <fstream>

#include "storage/lmdb_env.h"
#include "storage/lmdb_txn.h"
#include "storage/store_meta.h"
#include "tests/support/store_fixture.h"

namespace malachite::storage {
namespace {

using testing::StoreFixture;
using testing::TempDir;

std::optional<Entity> Get(Store& store, const TableInfo& t, std::string_view pk,
                          std::string_view rk) {
  auto view = store.Read();
  REQUIRE(view);
  auto got = (*view)->GetEntity(t, pk, rk);
  REQUIRE(got);
  return *got;
}

TEST_CASE("entity_store: put, overwrite, get and delete one entity", "[storage]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "T");
  f.Put(t, "p", "r", {{"A", EdmValue::Int32(1)}});
  f.Put(t, "p", "r", {{"B", EdmValue::String("two")}});
  auto got = Get(f.store(), t, "p", "r");
  REQUIRE(got);
  CHECK(got->partition_key == "p");
  CHECK(got->row_key == "r");
  CHECK(got->properties == std::vector<Property>{{"B", EdmValue::String("two")}});
  CHECK_FALSE(Get(f.store(), t, "p", "r2"));
  bool deleted = false, again = true;
  REQUIRE(f.store().Write([&](WriteContext& ctx) -> Result<void> {
    deleted = *ctx.DeleteEntity(t, "p", "r");
    again = *ctx.DeleteEntity(t, "p", "r");
    return {};
  }));
  CHECK(deleted);
  CHECK_FALSE(again);
  CHECK_FALSE(Get(f.store(), t, "p", "r"));
}

TEST_CASE("entity_store: InsertEntity writes only absent keys and uses a Timestamp only then",
          "[storage]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "T");
  const std::string long_rk(1000, 'r');  // kept in an overflow bucket
  f.Put(t, "p", "taken", {{"A", EdmValue::Int32(1)}});
  f.Put(t, "p", long_rk, {{"A", EdmValue::Int32(2)}});
  std::vector<bool> inserted;
  std::vector<DateTime> stamps;
  REQUIRE(f.store().Write([&](WriteContext& ctx) -> Result<void> {
    for (const std::string& rk : {std::string("taken"), long_rk, std::string("new"),
                                  std::string(999, 'r') + "s", std::string("new")}) {
      Entity e;
      e.partition_key = "p";
      e.row_key = rk;
      e.properties = {{"B", EdmValue::Int32(3)}};
      inserted.push_back(*ctx.InsertEntity(t, e));
      if (inserted.back()) stamps.push_back(e.timestamp);
    }
    // A refused insert handed out no Timestamp: the next one follows the last insert's.
    stamps.push_back(ctx.NextTimestamp());
    return {};
  }));
  CHECK(inserted == std::vector<bool>{false, false, true, true, false});
  REQUIRE(stamps.size() == 3);
  CHECK(stamps[1].ticks == stamps[0].ticks + 1);
  CHECK(stamps[2].ticks == stamps[1].ticks + 1);
  CHECK(Get(f.store(), t, "p", "taken")->properties.at(0).value.integer == 1);
  CHECK(Get(f.store(), t, "p", long_rk)->properties.at(0).value.integer == 2);
  auto fresh = Get(f.store(), t, "p", "new");
  REQUIRE(fresh);
  CHECK(fresh->timestamp == stamps[0]);
  CHECK(fresh->properties.at(0).value.integer == 3);
  CHECK(Get(f.store(), t, "p", std::string(999, 'r') + "s"));
}

TEST_CASE("entity_store: scans visit key order, stay inside their table and honour bounds",
          "[storage]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "T");
  TableInfo other = f.CreateTable("acct", "Other");
  for (const char* pk : {"b", "a", "ab", ""}) {
    for (const char* rk : {"2", "1", ""}) f.Put(t, pk, rk);
  }
  f.Put(other, "a", "1");
  using V = std::vector<std::string>;
  CHECK(f.Keys(t) ==
        V{"/", "/1", "/2", "a/", "a/1", "a/2", "ab/", "ab/1", "ab/2", "b/", "b/1", "b/2"});
  KeyRange partition_a{KeyBound{"a", std::nullopt, true}, KeyBound{"a", std::nullopt, true}};
  CHECK(f.Keys(t, partition_a) == V{"a/", "a/1", "a/2"});
  KeyRange rows{KeyBound{"a", "1", false}, KeyBound{"ab", "1", true}};
  CHECK(f.Keys(t, rows) == V{"a/2", "ab/", "ab/1"});
  KeyRange inverted{KeyBound{"b", std::nullopt, true}, KeyBound{"a", std::nullopt, true}};
  CHECK(f.Keys(t, inverted).empty());
}

TEST_CASE("entity_store: scan views read properties in place and decode on demand", "[storage]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "T");
  f.Put(t, "p", "1", {{"Qty", EdmValue::Int64(5)}, {"Name", EdmValue::String("n")}});
  auto view = f.store().Read();
  REQUIRE(view);
  int visited = 0;
  REQUIRE((*view)->ScanEntities(t, {}, [&](const EntityView& e) {
    ++visited;
    auto qty = e.Get("Qty");
    CHECK((qty && qty->type == EdmType::kInt64 && qty->integer == 5));
    CHECK_FALSE(e.Get("Nope"));
    CHECK(e.Get("PartitionKey")->bytes == "p");
    CHECK(e.Get("PartitionKey")->type == EdmType::kString);
    CHECK(e.Get("RowKey")->bytes == "1");
    CHECK(e.Get("Timestamp")->type == EdmType::kDateTime);
    CHECK(e.Get("Timestamp")->integer == e.timestamp().ticks);
    Entity full = e.Decode();
    CHECK(full.timestamp == e.timestamp());
    CHECK(full.properties.size() == 2);
    return true;
  }));
  CHECK(visited == 1);
}

TEST_CASE("entity_store: data survives closing and reopening the store", "[storage]") {
  StoreFixture f({.durability = Durability::kFull});
  TableInfo t = f.CreateTable("acct", "Durable");
  f.Put(t, "p", "r", {{"X", EdmValue::Double(1.5)}});
  f.Reopen();
  auto view = f.store().Read();
  REQUIRE(view);
  auto found = (*view)->FindTable("acct", "durable");
  REQUIRE((found && *found));
  auto got = Get(f.store(), **found, "p", "r");
  REQUIRE(got);
  CHECK(got->properties == std::vector<Property>{{"X", EdmValue::Double(1.5)}});
}

TEST_CASE("entity_store: Open refuses unusable directories with a one-line message", "[storage]") {
  TempDir dir;
  ManualClock clock(DateTime{kUnixEpochTicks});
  StoreOptions options;
  options.durability = Durability::kNone;

  options.data_dir = dir.path() + "/file";
  std::ofstream(options.data_dir) << "x";
  auto on_file = Store::Open(options, clock);
  REQUIRE_FALSE(on_file);
  CHECK(on_file.error().code == ErrorCode::kInternalError);
  CHECK(on_file.error().message == "data directory " + options.data_dir + ": is not a directory");

  options.data_dir = dir.path() + "/busy";
  auto first = Store::Open(options, clock);
  REQUIRE(first);
  auto second = Store::Open(options, clock);
  REQUIRE_FALSE(second);
  CHECK(second.error().message ==
        "data directory " + options.data_dir + ": in use by another running Malachite store");
  first->reset();

  // A store written by a future version is refused, not misread.
  {
    auto env = LmdbEnv::Open(LmdbEnvOptions{options.data_dir, 1ull << 30, Durability::kNone});
    REQUIRE(env);
    auto txn = LmdbTxn::Begin((*env)->get(), nullptr, 0);
    REQUIRE(txn);
    REQUIRE(WriteMetaU64(txn->get(), (*env)->dbs().meta, kMetaFormatVersion, 99));
    REQUIRE(txn->Commit());
  }
  auto future = Store::Open(options, clock);
  REQUIRE_FALSE(future);
  CHECK(future.error().message == "data directory " + options.data_dir +
                                      ": storage format version 99 was written by a newer "
                                      "malachite; this build reads version 1: run that release "
                                      "or a newer one (nothing was changed)");
}

TEST_CASE("entity_store: a full map fails the write clearly and loses nothing", "[storage]") {
  TempDir dir;
  ManualClock clock(DateTime{kUnixEpochTicks});
  StoreOptions options;
  options.data_dir = dir.path();
  options.map_size_bytes = 4u << 20;
  options.durability = Durability::kNone;
  auto store = Store::Open(options, clock);
  REQUIRE(store);
  TableInfo t;
  REQUIRE((*store)->Write([&](WriteContext& ctx) -> Result<void> {
    t = **ctx.CreateTable("acct", "Full");
    return {};
  }));
  std::string blob(60 * 1024, 'z');
  int stored = 0;
  Result<void> last;
  for (; stored < 200; ++stored) {
    last = (*store)->Write([&](WriteContext& ctx) -> Result<void> {
      return ctx.PutEntity(
          t,
          Entity{
              "p", std::to_string(stored), ctx.NextTimestamp(), {{"B", EdmValue::Binary(blob)}}});
    });
    if (!last) break;
  }
  REQUIRE_FALSE(last);
  CHECK(last.error().code == ErrorCode::kInsufficientAccountResources);
  CHECK(stored > 10);
  store->reset();
  store = Store::Open(options, clock);
  REQUIRE(store);
  auto view = (*store)->Read();
  REQUIRE(view);
  int count = 0;
  REQUIRE((*view)->ScanEntities(t, {}, [&](const EntityView& e) {
    count += e.Decode().properties.at(0).value.bytes == blob ? 1 : 0;
    return true;
  }));
  CHECK(count == stored);
}

}  // namespace
}  // namespace malachite::storage
