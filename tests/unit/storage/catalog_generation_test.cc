// Read views share tables found in earlier snapshots only while the catalog has not changed
// (storage/catalog_generation.h): these tests fail if a view answers a table another snapshot
// found after a delete, a re-create or in another store.
#include "storage/catalog_generation.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <functional>
#include <thread>
#include <vector>

#include "tests/support/store_fixture.h"

namespace malachite::storage {
namespace {

using testing::StoreFixture;

// The id of `account`/`name` as `view` finds it; 0 when there is no such table.
std::uint64_t FoundId(ReadView& view, const std::string& account, const std::string& name) {
  auto found = view.FindTable(account, name);
  REQUIRE(found);
  return *found ? (*found)->id : 0;
}

std::uint64_t FoundId(Store& store, const std::string& account, const std::string& name) {
  auto view = store.Read();
  REQUIRE(view);
  return FoundId(**view, account, name);
}

TEST_CASE("catalog_generation: a snapshot taken across a catalog change shares nothing",
          "[storage]") {
  CatalogGeneration generation;
  const std::uint64_t stable = generation.Before();
  CHECK(generation.After(stable) == stable);
  CHECK(stable % 2 == 0);

  generation.BeginChange();
  const std::uint64_t during = generation.Before();
  CHECK(generation.After(during) == CatalogGeneration::kUnstable);
  generation.EndChange();

  const std::uint64_t before = generation.Before();
  CHECK(before != stable);
  generation.BeginChange();
  generation.EndChange();
  CHECK(generation.After(before) == CatalogGeneration::kUnstable);
  CHECK(generation.After(generation.Before()) == before + 2);
  CHECK(CatalogGeneration().store_id() != generation.store_id());
}

TEST_CASE("catalog_generation: a table deleted and created again is found with its new id",
          "[storage]") {
  StoreFixture f;
  const TableInfo old = f.CreateTable("acct", "Orders");
  auto old_view = f.store().Read();
  REQUIRE(old_view);
  CHECK(FoundId(**old_view, "acct", "Orders") == old.id);
  CHECK(FoundId(f.store(), "acct", "Orders") == old.id);  // a later view of the same catalog

  f.DeleteTable("acct", "Orders");
  CHECK(FoundId(f.store(), "acct", "Orders") == 0);
  const TableInfo fresh = f.CreateTable("acct", "Orders");
  REQUIRE(fresh.id != old.id);
  CHECK(FoundId(f.store(), "acct", "Orders") == fresh.id);
  CHECK(FoundId(f.store(), "acct", "ORDERS") == fresh.id);

  // The view opened before the change still sees its snapshot's table.
  CHECK(FoundId(**old_view, "acct", "Orders") == old.id);
  auto name = (*old_view)->FindTable("acct", "orders");
  REQUIRE(name);
  REQUIRE(*name);
  CHECK((*name)->name == "Orders");
}

TEST_CASE("catalog_generation: a settings write moves the store's generation, a snapshot's too",
          "[storage]") {
  StoreFixture f;
  const TableInfo table = f.CreateTable("acct", "Orders");
  const StoreGeneration before = f.store().Generation();
  REQUIRE(before.stable());
  auto view = f.store().Read();
  REQUIRE(view);
  CHECK((*view)->generation() == before);
  view->reset();
  const std::vector<std::function<Result<void>(WriteContext&)>> writes = {
      [](WriteContext& w) { return w.SetServiceProperties("acct", "<cors/>"); },
      [&](WriteContext& w) { return w.SetTableAcl(table, "acl"); },
      [](WriteContext& w) { return w.PutRuntimeAccount("made", "record"); },
      [](WriteContext& w) { return w.DeleteRuntimeAccount("made"); },
  };
  StoreGeneration last = before;
  for (const auto& write : writes) {
    REQUIRE(f.store().Write(write));
    const StoreGeneration now = f.store().Generation();
    CHECK(now.stable());
    CHECK(now.store_id == before.store_id);
    CHECK(now.generation > last.generation);
    last = now;
  }
  REQUIRE(f.store().Write(
      [](WriteContext& w) { return w.GetServiceProperties("acct").map([](auto) {}); }));
  CHECK(f.store().Generation() == last);  // a read inside a write changes nothing
}

TEST_CASE("catalog_generation: stores at the same generation do not share tables", "[storage]") {
  // Same number of catalog changes in each, so the generations are equal; the ids differ.
  StoreFixture a, b;
  const TableInfo in_a = a.CreateTable("acct", "Shared");
  a.CreateTable("acct", "Pad");
  b.CreateTable("acct", "Pad");
  const TableInfo in_b = b.CreateTable("acct", "Shared");
  REQUIRE(in_a.id != in_b.id);
  CHECK(FoundId(a.store(), "acct", "Shared") == in_a.id);
  CHECK(FoundId(b.store(), "acct", "Shared") == in_b.id);
  CHECK(FoundId(a.store(), "acct", "Shared") == in_a.id);
}

TEST_CASE("catalog_generation: every view finds the table its own snapshot lists", "[storage]") {
  // A writer deletes and re-creates the table while a reader opens views: FindTable (which may
  // answer from the thread's cache) must agree with ScanTables (always the snapshot's catalog).
  StoreFixture f;
  f.CreateTable("acct", "Churn");
  std::atomic<bool> done{false};
  std::atomic<int> failed_writes{0};  // Catch2's assertions belong to the test's own thread
  std::thread writer([&] {
    for (int i = 0; i < 300; ++i) {
      bool deleted = false, created = false;
      const Result<void> ok_delete = f.store().Write([&](WriteContext& ctx) -> Result<void> {
        auto d = ctx.DeleteTable("acct", "Churn");
        deleted = d && *d;
        return {};
      });
      const Result<void> ok_create = f.store().Write([&](WriteContext& ctx) -> Result<void> {
        auto c = ctx.CreateTable("acct", "Churn");
        created = c && *c;
        return {};
      });
      if (!ok_delete.has_value() || !ok_create.has_value() || !deleted || !created) ++failed_writes;
    }
    done = true;
  });
  int views = 0, disagreements = 0;
  while (!done || views < 1000) {
    auto view = f.store().Read();
    REQUIRE(view);
    std::uint64_t listed = 0;
    REQUIRE((*view)->ScanTables("acct", "", [&](const TableInfo& t) {
      if (t.name == "Churn") listed = t.id;
      return true;
    }));
    auto found = (*view)->FindTable("acct", "Churn");
    REQUIRE(found);
    if ((*found ? (*found)->id : 0) != listed) ++disagreements;
    ++views;
  }
  writer.join();
  CHECK(failed_writes == 0);
  CHECK(disagreements == 0);
  CHECK(FoundId(f.store(), "acct", "Churn") == 301);  // id 1, then 2..301 from the re-creates
}

}  // namespace
}  // namespace malachite::storage
