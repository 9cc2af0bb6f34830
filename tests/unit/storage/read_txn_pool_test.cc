#include "storage/read_txn_pool.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "storage/lmdb_env.h"
#include "storage/lmdb_txn.h"
#include "tests/support/temp_dir.h"

namespace malachite::storage {
namespace {

using testing::TempDir;

// An environment in a temp dir with one value under "k" in the meta database.
struct PoolFixture {
  PoolFixture() {
    auto opened = LmdbEnv::Open({dir.path() + "/data", 64u << 20});
    REQUIRE(opened);
    env = std::move(*opened);
    Put("k", "1");
  }
  void Put(const std::string& key, const std::string& value) {
    auto txn = LmdbTxn::Begin(env->get(), nullptr, 0);
    REQUIRE(txn);
    REQUIRE(txn->Put(env->dbs().meta, key, value));
    REQUIRE(txn->Commit());
  }
  std::string Get(MDB_txn* txn, const std::string& key) {
    auto got = LmdbGet(txn, env->dbs().meta, key, "get");
    REQUIRE(got);
    return got->has_value() ? std::string(**got) : std::string("(none)");
  }
  TempDir dir;
  std::unique_ptr<LmdbEnv> env;
};

TEST_CASE("read_txn_pool: a released transaction comes back renewed, on the newest snapshot",
          "[storage]") {
  PoolFixture f;
  ReadTxnPool pool(*f.env);
  auto first = pool.Acquire();
  REQUIRE(first);
  CHECK(f.Get(*first, "k") == "1");
  f.Put("k", "2");
  CHECK(f.Get(*first, "k") == "1");  // a snapshot does not move while it is held
  pool.Release(*first);
  auto again = pool.Acquire();
  REQUIRE(again);
  CHECK(*again == *first);  // kept, not begun anew
  CHECK(f.Get(*again, "k") == "2");
  pool.Release(*again);
}

TEST_CASE(
    "read_txn_pool: more transactions than it keeps, released on other threads, all work and "
    "the pool ends cleanly",
    "[storage]") {
  PoolFixture f;
  auto pool = std::make_unique<ReadTxnPool>(*f.env);
  std::vector<MDB_txn*> held;
  for (int i = 0; i < 40; ++i) {
    auto txn = pool->Acquire();
    REQUIRE(txn);
    held.push_back(*txn);
  }
  f.Put("k", "3");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = t; i < held.size(); i += 4) pool->Release(held[i]);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int i = 0; i < 40; ++i) {
    auto txn = pool->Acquire();
    REQUIRE(txn);
    CHECK(f.Get(*txn, "k") == "3");
    pool->Release(*txn);
  }
  pool.reset();  // aborts what it kept before the environment closes
  f.Put("k", "4");
}

}  // namespace
}  // namespace malachite::storage
