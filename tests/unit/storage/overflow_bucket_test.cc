// Keys longer than LMDB's key limit live in overflow buckets; none of that may show.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>

#include "tests/support/store_fixture.h"

namespace malachite::storage {
namespace {

using testing::StoreFixture;

TEST_CASE("entity_store: 1000-char keys mix with short ones in order, get, overwrite, delete",
          "[storage]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "Long");
  std::string long_a(1000, 'a');
  std::string long_b = std::string(999, 'a') + "b";
  std::string emoji;
  for (int i = 0; i < 250; ++i) emoji += "\U0001F600";  // 1,000 bytes of UTF-8, 500 UTF-16 units
  std::map<std::pair<std::string, std::string>, int> expected;  // byte order == order here
  int n = 0;
  for (const std::string& pk : {std::string("a"), long_a, long_b, std::string(400, 'a')}) {
    for (const std::string& rk : {std::string(""), std::string("x"), long_a, long_b, emoji}) {
      f.Put(t, pk, rk, {{"N", EdmValue::Int32(n)}});
      expected[{pk, rk}] = n++;
    }
  }
  std::vector<std::string> want;
  for (const auto& [key, v] : expected) want.push_back(key.first + "/" + key.second);
  CHECK(f.Keys(t) == want);

  for (const auto& [key, v] : expected) {
    auto view = f.store().Read();
    auto got = (*view)->GetEntity(t, key.first, key.second);
    REQUIRE(got);
    REQUIRE(*got);
    CHECK((*got)->properties.at(0).value.integer == v);
  }
  // Overwrite and delete inside a bucket leave its neighbours alone.
  f.Put(t, long_a, long_b, {{"N", EdmValue::Int32(-1)}});
  REQUIRE(f.store().Write([&](WriteContext& ctx) -> Result<void> {
    CHECK(*ctx.DeleteEntity(t, long_a, long_a));
    CHECK_FALSE(*ctx.DeleteEntity(t, long_a, long_a));
    CHECK_FALSE(*ctx.DeleteEntity(t, long_a, std::string(1000, 'q')));
    return {};
  }));
  want.erase(std::find(want.begin(), want.end(), long_a + "/" + long_a));
  CHECK(f.Keys(t) == want);
  auto view = f.store().Read();
  CHECK((*(*view)->GetEntity(t, long_a, long_b))->properties.at(0).value.integer == -1);
  CHECK(*(*view)->GetEntity(t, long_a, "x"));

  // A range that starts and ends inside one bucket.
  // Row keys of partition long_a in order: "", long_a (deleted), long_b, "x", emoji.
  KeyRange inside{KeyBound{long_a, long_a, true}, KeyBound{long_a, emoji, false}};
  CHECK(f.Keys(t, inside) == std::vector<std::string>{long_a + "/" + long_b, long_a + "/x"});
  KeyRange exclusive{KeyBound{long_a, long_b, false}, KeyBound{long_a, emoji, true}};
  CHECK(f.Keys(t, exclusive) == std::vector<std::string>{long_a + "/x", long_a + "/" + emoji});
  KeyRange partition{KeyBound{long_a, std::nullopt, true}, KeyBound{long_a, std::nullopt, true}};
  CHECK(f.Keys(t, partition) == std::vector<std::string>{long_a + "/", long_a + "/" + long_b,
                                                         long_a + "/x", long_a + "/" + emoji});
}

TEST_CASE("entity_store: many long row keys in one partition all round-trip", "[storage]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "Bucket");
  std::string pk(600, 'p');
  std::vector<std::string> want;
  REQUIRE(f.store().Write([&](WriteContext& ctx) -> Result<void> {
    for (int i = 299; i >= 0; --i) {
      std::string rk = std::to_string(1000 + i);
      auto ok = ctx.PutEntity(t, Entity{pk, rk, ctx.NextTimestamp(), {}});
      if (!ok) return ok;
    }
    return {};
  }));
  for (int i = 0; i < 300; ++i) want.push_back(pk + "/" + std::to_string(1000 + i));
  CHECK(f.Keys(t) == want);
}

}  // namespace
}  // namespace malachite::storage
