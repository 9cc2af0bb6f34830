#include <catch2/catch.hpp>

#include "tests/support/store_fixture.h"

namespace malachite::storage {
namespace {

using testing::StoreFixture;

std::string ListTables(Store& store, const std::string& account, const std::string& from = "") {
  std::string out;
  auto view = store.Read();
  REQUIRE(view);
  auto ok = (*view)->ScanTables(account, from, [&](const TableInfo& t) {
    out += (out.empty() ? "" : " ") + t.account + "/" + t.name + "#" + std::to_string(t.id);
    return true;
  });
  REQUIRE(ok);
  return out;
}

TEST_CASE("table_catalog: tables are found case-insensitively and keep their created name",
          "[storage]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "MyTable");
  auto view = f.store().Read();
  REQUIRE(view);
  auto found = (*view)->FindTable("acct", "mytable");
  REQUIRE(found);
  REQUIRE(*found);
  CHECK((*found)->name == "MyTable");
  CHECK((*found)->id == t.id);
  CHECK_FALSE(*(*view)->FindTable("other", "MyTable"));
}

TEST_CASE("table_catalog: creating an existing name in any case returns nullopt", "[storage]") {
  StoreFixture f;
  f.CreateTable("acct", "Orders");
  std::optional<TableInfo> again = TableInfo{};
  auto ok = f.store().Write([&](WriteContext& ctx) -> Result<void> {
    auto created = ctx.CreateTable("acct", "ORDERS");
    if (!created) return tl::unexpected<Error>(created.error());
    again = *created;
    return {};
  });
  REQUIRE(ok);
  CHECK_FALSE(again);
  CHECK(ListTables(f.store(), "acct") == "acct/Orders#1");
}

TEST_CASE("table_catalog: tables list per account in lower-cased name order from a start",
          "[storage]") {
  StoreFixture f;
  for (const char* name : {"beta", "Alpha", "gamma", "ALPHA2", "Delta"}) f.CreateTable("a1", name);
  f.CreateTable("a10", "zeta");
  f.CreateTable("a", "omega");
  CHECK(ListTables(f.store(), "a1") == "a1/Alpha#2 a1/ALPHA2#4 a1/beta#1 a1/Delta#5 a1/gamma#3");
  CHECK(ListTables(f.store(), "a1", "beta") == "a1/beta#1 a1/Delta#5 a1/gamma#3");
  CHECK(ListTables(f.store(), "a1", "c") == "a1/Delta#5 a1/gamma#3");
  CHECK(ListTables(f.store(), "a") == "a/omega#7");
  CHECK(ListTables(f.store(), "nobody") == "");
}

TEST_CASE("table_catalog: a deleted table is gone and its name gets a new id", "[storage]") {
  StoreFixture f;
  TableInfo old = f.CreateTable("acct", "Stuff");
  f.Put(old, "p", "r");
  bool deleted = false, missing = true;
  REQUIRE(f.store().Write([&](WriteContext& ctx) -> Result<void> {
    auto d = ctx.DeleteTable("acct", "STUFF");
    auto m = ctx.DeleteTable("acct", "nothere");
    if (!d || !m) return Fail(ErrorCode::kInternalError);
    deleted = *d;
    missing = *m;
    return {};
  }));
  CHECK(deleted);
  CHECK_FALSE(missing);
  CHECK(ListTables(f.store(), "acct") == "");
  TableInfo fresh = f.CreateTable("acct", "Stuff");
  CHECK(fresh.id != old.id);
  CHECK(f.Keys(fresh).empty());
}

TEST_CASE("table_catalog: a stale TableInfo cannot write into a deleted table", "[storage]") {
  StoreFixture f;
  TableInfo old = f.CreateTable("acct", "Gone");
  REQUIRE(f.store().Write([](WriteContext& ctx) -> Result<void> {
    return ctx.DeleteTable("acct", "Gone").map([](bool) {});
  }));
  auto put = f.store().Write([&](WriteContext& ctx) -> Result<void> {
    return ctx.PutEntity(old, Entity{"p", "r", ctx.NextTimestamp(), {}});
  });
  REQUIRE_FALSE(put);
  CHECK(put.error().code == ErrorCode::kTableNotFound);
}

TEST_CASE("table_catalog: a write after its table was deleted in the same transaction fails",
          "[storage]") {
  StoreFixture f;
  TableInfo old = f.CreateTable("acct", "Gone");
  std::vector<std::string> codes;  // "ok" or the Azure code of each write
  const auto outcome = [](const auto& result) {
    return result ? std::string("ok") : std::string(result.error().AzureCode());
  };
  auto written = f.store().Write([&](WriteContext& ctx) -> Result<void> {
    // Writes before the delete confirm the table live; the delete must end that.
    for (const char* rk : {"1", "2"}) {
      Entity e{"p", rk, ctx.NextTimestamp(), {}};
      codes.push_back(outcome(ctx.PutEntity(old, e)));
    }
    if (auto deleted = ctx.DeleteTable("acct", "Gone"); !deleted || !*deleted) {
      return Fail(ErrorCode::kInternalError, {}, "delete failed");
    }
    auto created = ctx.CreateTable("acct", "Gone");  // same name, new id
    if (!created || !*created) return Fail(ErrorCode::kInternalError, {}, "create failed");
    Entity e{"p", "3", {}, {}};
    codes.push_back(outcome(ctx.PutEntity(old, e)));
    codes.push_back(outcome(ctx.InsertEntity(old, e)));
    return {};
  });
  REQUIRE(written);
  CHECK(codes == std::vector<std::string>{"ok", "ok", "TableNotFound", "TableNotFound"});
}

}  // namespace
}  // namespace malachite::storage
