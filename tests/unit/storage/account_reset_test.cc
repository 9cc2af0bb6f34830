// DeleteAccountTables and DeleteAccount (account_reset.h), the store halves of /-/reset and of
// deleting an account, on real LMDB in a temp dir.
#include "storage/account_reset.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "tests/support/store_fixture.h"

namespace malachite::storage {
namespace {

using testing::StoreFixture;

bool Exists(Store& store, const std::string& account, const std::string& name) {
  auto view = store.Read();
  REQUIRE(view);
  auto table = (*view)->FindTable(account, name);
  REQUIRE(table);
  return table->has_value();
}

// "<tables> | properties=<record or -> | account=<record or ->" of `account`.
std::string Stored(Store& store, const std::string& account) {
  auto view = store.Read();
  REQUIRE(view);
  std::string out;
  REQUIRE((*view)->ScanTables(account, "", [&](const TableInfo& table) {
    out += table.name + " ";
    return true;
  }));
  auto properties = (*view)->GetServiceProperties(account);
  REQUIRE(properties);
  out += "| properties=" + properties->value_or("-") + " | account=";
  std::string record = "-";
  REQUIRE((*view)->ScanRuntimeAccounts([&](std::string_view name, std::string_view value) {
    if (name == account) record = std::string(value);
  }));
  return out + record;
}

void Keep(Store& store, const std::string& account, const std::string& tag) {
  REQUIRE(store.Write([&](WriteContext& ctx) -> Result<void> {
    if (auto ok = ctx.PutRuntimeAccount(account, "record " + tag); !ok) return ok;
    return ctx.SetServiceProperties(account, "properties " + tag);
  }));
}

}  // namespace

TEST_CASE("account_reset: deletes one account's tables in one write, leaving other accounts",
          "[storage][reset]") {
  StoreFixture f;
  TableInfo a1 = f.CreateTable("a", "one");
  f.CreateTable("a", "Two");
  TableInfo b1 = f.CreateTable("b", "one");
  for (int i = 0; i < 50; ++i) f.Put(a1, "p", std::to_string(i));
  f.Put(b1, "p", "1");
  std::size_t deleted = 0;
  REQUIRE(f.store().Write([&](WriteContext& ctx) -> Result<void> {
    auto n = DeleteAccountTables(ctx, "a");
    if (!n) return tl::unexpected(n.error());
    deleted = *n;
    return {};
  }));
  CHECK(deleted == 2);
  CHECK_FALSE(Exists(f.store(), "a", "one"));
  CHECK_FALSE(Exists(f.store(), "a", "two"));
  CHECK(f.Keys(b1) == std::vector<std::string>{"p/1"});
  // A new table of the same name starts empty; the old entities are reclaimed in the background.
  TableInfo again = f.CreateTable("a", "one");
  CHECK(f.Keys(again).empty());
  f.store().WaitForReclaim();
  CHECK(f.Keys(again).empty());
}

TEST_CASE("account_reset: DeleteAccount removes an account's tables, properties and record",
          "[storage][reset]") {
  StoreFixture f;
  Keep(f.store(), "gone", "g");
  Keep(f.store(), "kept", "k");
  TableInfo orders = f.CreateTable("gone", "Orders");
  f.Put(orders, "p", "1");
  f.CreateTable("kept", "Orders");
  REQUIRE(Stored(f.store(), "gone") == "Orders | properties=properties g | account=record g");
  REQUIRE(f.store().Write([](WriteContext& ctx) { return DeleteAccount(ctx, "gone"); }));
  CHECK(Stored(f.store(), "gone") == "| properties=- | account=-");
  CHECK(Stored(f.store(), "kept") == "Orders | properties=properties k | account=record k");
  // Nothing stored under the name is not an error.
  CHECK(f.store().Write([](WriteContext& ctx) { return DeleteAccount(ctx, "gone"); }));
  CHECK(f.store().Write([](WriteContext& ctx) { return DeleteAccount(ctx, "never"); }));
  f.store().WaitForReclaim();
  CHECK(f.Keys(f.CreateTable("gone", "Orders")).empty());
}

}  // namespace malachite::storage
