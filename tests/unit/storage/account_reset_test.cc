// DeleteAccountTables (account_reset.h), the store half of /-/reset and of deleting an account,
// on real LMDB in a temp dir.
#include "storage/account_reset.h"

#include <catch2/catch.hpp>
#include <string>
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

}  // namespace malachite::storage
