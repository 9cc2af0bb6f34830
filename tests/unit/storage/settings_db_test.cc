#include <catch2/catch.hpp>

#include "tests/support/store_fixture.h"

namespace malachite::storage {
namespace {

using testing::StoreFixture;

std::string AclOf(Store& store, const TableInfo& table) {
  auto view = store.Read();
  REQUIRE(view);
  auto acl = (*view)->GetTableAcl(table);
  REQUIRE(acl);
  return acl->value_or("<none>");
}

std::string PropertiesOf(Store& store, const std::string& account) {
  auto view = store.Read();
  REQUIRE(view);
  auto properties = (*view)->GetServiceProperties(account);
  REQUIRE(properties);
  return properties->value_or("<none>");
}

void SetAcl(Store& store, const TableInfo& table, const std::string& record) {
  REQUIRE(store.Write([&](WriteContext& ctx) { return ctx.SetTableAcl(table, record); }));
}

TEST_CASE("settings: a table ACL and service properties persist across a reopen", "[storage]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "Orders");
  CHECK(AclOf(f.store(), t) == "<none>");
  SetAcl(f.store(), t, "policies-v1");
  REQUIRE(f.store().Write(
      [](WriteContext& ctx) { return ctx.SetServiceProperties("acct", "props-v1"); }));
  f.Reopen();
  CHECK(AclOf(f.store(), t) == "policies-v1");
  CHECK(PropertiesOf(f.store(), "acct") == "props-v1");
  CHECK(PropertiesOf(f.store(), "other") == "<none>");
}

TEST_CASE("settings: Delete Table removes its ACL and a new table of the name has none",
          "[storage]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "Orders");
  SetAcl(f.store(), t, "policies");
  REQUIRE(f.store().Write([](WriteContext& ctx) -> Result<void> {
    auto deleted = ctx.DeleteTable("acct", "orders");
    if (!deleted) return tl::unexpected(deleted.error());
    return {};
  }));
  CHECK(AclOf(f.store(), t) == "<none>");
  TableInfo again = f.CreateTable("acct", "Orders");
  CHECK(AclOf(f.store(), again) == "<none>");
}

TEST_CASE("settings: SetTableAcl on a table deleted since lookup fails with TableNotFound",
          "[storage]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "Orders");
  REQUIRE(f.store().Write([](WriteContext& ctx) -> Result<void> {
    auto deleted = ctx.DeleteTable("acct", "Orders");
    if (!deleted) return tl::unexpected(deleted.error());
    return {};
  }));
  auto written = f.store().Write([&](WriteContext& ctx) { return ctx.SetTableAcl(t, "x"); });
  REQUIRE_FALSE(written);
  CHECK(written.error().code == ErrorCode::kTableNotFound);
}

TEST_CASE("settings: service properties are read back inside the same write", "[storage]") {
  StoreFixture f;
  std::string seen;
  REQUIRE(f.store().Write([&](WriteContext& ctx) -> Result<void> {
    if (auto ok = ctx.SetServiceProperties("acct", "first"); !ok) return ok;
    auto current = ctx.GetServiceProperties("acct");
    if (!current) return tl::unexpected(current.error());
    seen = current->value_or("<none>");
    return {};
  }));
  CHECK(seen == "first");
}

}  // namespace
}  // namespace malachite::storage
