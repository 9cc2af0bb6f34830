#include <catch2/catch.hpp>
#include <chrono>

#include "storage/lmdb_env.h"
#include "tests/support/store_fixture.h"

namespace malachite::storage {
namespace {

using testing::StoreFixture;

void Fill(Store& store, const TableInfo& t, int count) {
  constexpr int kPerWrite = 5000;
  for (int base = 0; base < count; base += kPerWrite) {
    REQUIRE(store.Write([&](WriteContext& ctx) -> Result<void> {
      for (int i = base; i < base + kPerWrite && i < count; ++i) {
        auto ok = ctx.PutEntity(t, Entity{std::to_string(i % 97),
                                          std::to_string(i),
                                          ctx.NextTimestamp(),
                                          {{"V", EdmValue::Int32(i)}}});
        if (!ok) return ok;
      }
      return {};
    }));
  }
}

// Entries in the "entities" database. REQUIRES: the store is closed.
std::size_t EntityRecords(const std::string& dir) {
  auto env = LmdbEnv::Open(LmdbEnvOptions{dir, 1ull << 30, Durability::kNone});
  REQUIRE(env);
  MDB_txn* txn = nullptr;
  REQUIRE(mdb_txn_begin((*env)->get(), nullptr, MDB_RDONLY, &txn) == 0);
  MDB_stat stat{};
  REQUIRE(mdb_stat(txn, (*env)->dbs().entities, &stat) == 0);
  mdb_txn_abort(txn);
  return stat.ms_entries;
}

TEST_CASE(
    "reclaimer: deleting a table of 100000 entities answers at once and the space is "
    "reclaimed in the background",
    "[storage]") {
  StoreFixture f;
  TableInfo big = f.CreateTable("acct", "Big");
  TableInfo keep = f.CreateTable("acct", "Keep");
  Fill(f.store(), big, 100'000);
  Fill(f.store(), keep, 10);

  auto start = std::chrono::steady_clock::now();
  CHECK(f.DeleteTable("acct", "Big"));
  auto took = std::chrono::steady_clock::now() - start;
  CHECK(took < std::chrono::milliseconds(200));

  // Nothing of the old table shows, even through its old id, nor through a new table.
  TableInfo reborn = f.CreateTable("acct", "big");
  CHECK(f.Keys(reborn).empty());
  f.store().WaitForReclaim();
  CHECK(f.Keys(big).empty());
  CHECK(f.Keys(keep).size() == 10);
  f.Close();
  CHECK(EntityRecords(f.dir() + "/data") == 10);
}

TEST_CASE("reclaimer: reclamation interrupted by a restart resumes", "[storage]") {
  StoreFixture f;
  TableInfo big = f.CreateTable("acct", "Big");
  Fill(f.store(), big, 50'000);
  CHECK(f.DeleteTable("acct", "Big"));
  f.Reopen();  // most likely mid-reclaim
  f.store().WaitForReclaim();
  f.Close();
  CHECK(EntityRecords(f.dir() + "/data") == 0);
}

}  // namespace
}  // namespace malachite::storage
