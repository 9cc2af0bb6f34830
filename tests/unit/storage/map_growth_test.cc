// The LMDB map grows as the data does (storage/FORMAT.md, "The map grows as needed"): the
// policy's arithmetic, then stores opened with a 1 MiB map taking far more than that, with readers
// on other threads, across a reopen, at the maximum and inside a group.
#include "storage/map_growth.h"

#include <lmdb.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "platform/map_size.h"
#include "storage/lmdb_env.h"
#include "storage/lmdb_txn.h"
#include "storage/store.h"
#include "tests/support/temp_dir.h"

namespace malachite::storage {
namespace {

using testing::TempDir;

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

std::string Mib(std::uint64_t bytes) {
  if (bytes % kMiB != 0) return std::to_string(bytes) + "B";
  return std::to_string(bytes / kMiB) + "M";
}

TEST_CASE(
    "map_growth: the map doubles up to 1 GiB, then grows 1 GiB at a time, in whole MiB, never "
    "past its maximum",
    "[storage]") {
  std::string steps = Mib(kMiB);
  for (std::uint64_t size = kMiB, next; (next = NextMapSize(size, 3 * kGiB + 512 * kMiB)) != size;
       size = next) {
    steps += " " + Mib(next);
  }
  CHECK(steps == "1M 2M 4M 8M 16M 32M 64M 128M 256M 512M 1024M 2048M 3072M 3584M");
  // What LMDB opened at the data's own size (pages, not MiB) grows to whole MiB.
  CHECK(Mib(NextMapSize(3 * kMiB / 2 + 4096, kGiB)) == "4M");
  CHECK(Mib(NextMapSize(0, kGiB)) == "1M");
  CHECK(Mib(NextMapSize(8 * kMiB, 8 * kMiB)) == "8M");  // at the maximum: no growth
}

TEST_CASE("map_growth: the initial map is the system's unless given, never above the maximum",
          "[storage]") {
  CHECK(InitialMapSize(0, 8 * kMiB) == std::min(platform::kInitialMapSize, 8 * kMiB));
  CHECK(InitialMapSize(kMiB, 8 * kMiB) == kMiB);
  CHECK(InitialMapSize(16 * kMiB, 8 * kMiB) == 8 * kMiB);
}

TEST_CASE(
    "map_growth: a map that takes disk grows by at most half the disk's free room, in whole MiB",
    "[storage]") {
  CHECK(Mib(FitDiskRoom(64 * kMiB, 128 * kMiB, 200 * kMiB)) == "128M");
  CHECK(Mib(FitDiskRoom(64 * kMiB, 128 * kMiB, 21 * kMiB)) == "74M");
  CHECK(Mib(FitDiskRoom(64 * kMiB, 128 * kMiB, kMiB)) == "64M");  // not a whole MiB: no growth
}

// --- Stores that start with a 1 MiB map ---

StoreOptions SmallMap(const std::string& dir, std::uint64_t maximum = std::uint64_t{1} << 40) {
  StoreOptions options;
  options.data_dir = dir;
  options.initial_map_size_bytes = kMiB;
  options.map_size_bytes = maximum;
  options.durability = Durability::kNone;
  return options;
}

// The payload of entity `seq`: `size` bytes that only that entity has, so a reader can tell a
// record from a torn or misplaced one.
std::string Payload(std::int64_t seq, std::size_t size) {
  std::string bytes(size, '\0');
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>((seq * 131 + i * 7) & 0xff);
  return bytes;
}

std::string Padded(std::int64_t n) {
  std::string digits = std::to_string(n);
  return std::string(8 - std::min<std::size_t>(8, digits.size()), '0') + digits;
}

// Keys in the order of `seq`: 100 entities a partition.
std::string PartitionKey(std::int64_t seq) { return "p" + Padded(seq / 100); }
std::string RowKey(std::int64_t seq) { return Padded(seq); }

Entity MakeEntity(std::int64_t seq, std::size_t payload, DateTime timestamp) {
  return Entity{
      PartitionKey(seq),
      RowKey(seq),
      timestamp,
      {{"Seq", EdmValue::Int64(seq)}, {"Payload", EdmValue::Binary(Payload(seq, payload))}}};
}

// True when `e` is exactly what MakeEntity(seq, payload) wrote under its keys.
bool Intact(const Entity& e, std::int64_t seq, std::size_t payload) {
  const Property* stored_seq = e.Find("Seq");
  const Property* bytes = e.Find("Payload");
  return e.row_key == RowKey(seq) && stored_seq != nullptr && stored_seq->value.integer == seq &&
         bytes != nullptr && bytes->value.bytes == Payload(seq, payload);
}

KeyRange PartitionRange(const std::string& pk) {
  return KeyRange{KeyBound{pk, std::nullopt, true}, KeyBound{pk, std::nullopt, true}};
}

TableInfo CreateTable(Store& store, const std::string& name) {
  TableInfo table;
  REQUIRE(store.Write([&](WriteContext& ctx) -> Result<void> {
    table = **ctx.CreateTable("acct", name);
    return {};
  }));
  return table;
}

Result<void> PutSeq(Store& store, const TableInfo& table, std::int64_t seq, std::size_t payload) {
  return store.Write([&](WriteContext& ctx) -> Result<void> {
    return ctx.PutEntity(table, MakeEntity(seq, payload, ctx.NextTimestamp()));
  });
}

// Every entity of `table` is intact and numbered 0..count-1.
void CheckAll(Store& store, const TableInfo& table, std::int64_t count, std::size_t payload) {
  auto view = store.Read();
  REQUIRE(view);
  std::int64_t seen = 0, broken = 0;
  REQUIRE((*view)->ScanEntities(table, {}, [&](const EntityView& e) {
    if (!Intact(e.Decode(), seen, payload)) ++broken;
    ++seen;
    return true;
  }));
  CHECK(seen == count);
  CHECK(broken == 0);
}

// What LMDB itself reports of a closed store's data.mdb: the bytes up to its last page in use,
// the map size recorded in it (the map the last writer had), and the file's size on disk.
struct FileFacts {
  std::uint64_t used_bytes = 0;
  std::uint64_t recorded_map_size = 0;
  std::uint64_t file_bytes = 0;
};

FileFacts FactsOf(const std::string& dir) {
  MDB_env* env = nullptr;
  REQUIRE(mdb_env_create(&env) == 0);
  // LMDB: opened read-only without a configured size, an environment takes the recorded one.
  REQUIRE(mdb_env_open(env, (dir + "/data.mdb").c_str(), MDB_NOSUBDIR | MDB_RDONLY | MDB_NOLOCK,
                       0644) == 0);
  MDB_envinfo info{};
  MDB_stat stat{};
  REQUIRE(mdb_env_info(env, &info) == 0);
  REQUIRE(mdb_env_stat(env, &stat) == 0);
  mdb_env_close(env);
  return FileFacts{(info.me_last_pgno + 1) * stat.ms_psize, info.me_mapsize,
                   std::filesystem::file_size(dir + "/data.mdb")};
}

TEST_CASE(
    "map growth: a store started with a 1 MiB map takes 40 MiB of writes from four threads, "
    "grows its map several times and reads back every acknowledged write",
    "[storage]") {
  TempDir dir;
  const StoreOptions options = SmallMap(dir.path() + "/data");
  constexpr std::int64_t kWriters = 4, kPerWriter = 2500;
  constexpr std::size_t kPayload = 4000;
  std::uint64_t map_size = 0;
  {
    auto store = Store::Open(options, SystemClock::Instance());
    REQUIRE(store);
    CHECK((*store)->Stats().map_size_bytes == kMiB);
    TableInfo table = CreateTable(**store, "Grown");
    std::atomic<int> failed{0};
    std::vector<std::thread> writers;
    for (std::int64_t w = 0; w < kWriters; ++w) {
      writers.emplace_back([&, w] {
        for (std::int64_t i = 0; i < kPerWriter; ++i) {
          if (!PutSeq(**store, table, i * kWriters + w, kPayload)) failed.fetch_add(1);
        }
      });
    }
    for (std::thread& writer : writers) writer.join();
    CHECK(failed.load() == 0);
    const StoreStats stats = (*store)->Stats();
    CHECK(stats.map_growths >= 5);
    map_size = stats.map_size_bytes;
    CHECK(map_size >= 40 * kMiB);
    CheckAll(**store, table, kWriters * kPerWriter, kPayload);
  }
  // The map stays proportional to the data: at most twice what is in use plus the initial map.
  const FileFacts facts = FactsOf(options.data_dir);
  INFO("used " << facts.used_bytes << ", map " << map_size << ", file " << facts.file_bytes);
  CHECK(facts.used_bytes >= kWriters * kPerWriter * kPayload);
  CHECK(map_size <= 2 * facts.used_bytes + kMiB);
  CHECK(facts.recorded_map_size == map_size);
  CHECK(facts.file_bytes <= map_size);
}

TEST_CASE(
    "map growth: readers on other threads keep reading while the map grows and never see a torn "
    "or missing entity",
    "[storage]") {
  TempDir dir;
  auto store = Store::Open(SmallMap(dir.path() + "/data"), SystemClock::Instance());
  REQUIRE(store);
  TableInfo table = CreateTable(**store, "Read");
  constexpr std::int64_t kCount = 6000;
  constexpr std::size_t kPayload = 4000;
  std::atomic<std::int64_t> acked{0};  // entities 0..acked-1 are committed
  std::atomic<bool> done{false};
  std::atomic<std::int64_t> reads{0}, bad{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&, r] {
      std::mt19937_64 random(r);
      while (!done.load()) {
        const std::int64_t known = acked.load();
        if (known == 0) continue;
        const std::int64_t seq = static_cast<std::int64_t>(random() % known);
        auto view = (*store)->Read();
        if (!view) {
          bad.fetch_add(1);
          continue;
        }
        auto got = (*view)->GetEntity(table, PartitionKey(seq), RowKey(seq));
        if (!got || !*got || !Intact(**got, seq, kPayload)) bad.fetch_add(1);
        // And a whole partition, in key order, in the same snapshot.
        std::int64_t next = seq / 100 * 100;
        auto scanned = (*view)->ScanEntities(table, PartitionRange(PartitionKey(seq)),
                                             [&](const EntityView& e) {
                                               if (!Intact(e.Decode(), next++, kPayload))
                                                 bad.fetch_add(1);
                                               return true;
                                             });
        if (!scanned || next <= seq) bad.fetch_add(1);
        reads.fetch_add(1);
      }
    });
  }
  for (std::int64_t seq = 0; seq < kCount; ++seq) {
    REQUIRE(PutSeq(**store, table, seq, kPayload));
    acked.store(seq + 1);
  }
  done = true;
  for (std::thread& reader : readers) reader.join();
  CHECK((*store)->Stats().map_growths >= 4);
  CHECK(reads.load() > 100);
  CHECK(bad.load() == 0);
}

TEST_CASE(
    "map growth: a store reopened with its 1 MiB initial map keeps everything, opens with room "
    "for its data and grows on",
    "[storage]") {
  TempDir dir;
  const StoreOptions options = SmallMap(dir.path() + "/data");
  constexpr std::size_t kPayload = 4000;
  TableInfo table;
  {
    auto store = Store::Open(options, SystemClock::Instance());
    REQUIRE(store);
    table = CreateTable(**store, "Reopened");
    for (std::int64_t seq = 0; seq < 2000; ++seq) REQUIRE(PutSeq(**store, table, seq, kPayload));
  }
  const FileFacts before = FactsOf(options.data_dir);
  auto store = Store::Open(options, SystemClock::Instance());
  REQUIRE(store);
  // LMDB alone would open at exactly the pages in use (the next case); the store adds a growth.
  const std::uint64_t reopened = (*store)->Stats().map_size_bytes;
  CHECK(reopened == NextMapSize(before.used_bytes, options.map_size_bytes));
  CheckAll(**store, table, 2000, kPayload);
  for (std::int64_t seq = 2000; seq < 6000; ++seq) REQUIRE(PutSeq(**store, table, seq, kPayload));
  CHECK((*store)->Stats().map_growths >= 1);
  CheckAll(**store, table, 6000, kPayload);
}

TEST_CASE(
    "map growth: LMDB opens a file at the configured map size, or at the pages in use if more, not "
    "at the size recorded in the file, and LmdbEnv adds one growth step",
    "[storage]") {
  TempDir dir;
  const std::string path = dir.path() + "/data";
  {
    auto env = LmdbEnv::Open({path, 64 * kMiB, Durability::kNone, 512, 64 * kMiB});
    REQUIRE(env);
    auto txn = LmdbTxn::Begin((*env)->get(), nullptr, 0);
    REQUIRE(txn);
    for (int i = 0; i < 1000; ++i) {
      REQUIRE(txn->Put((*env)->dbs().entities, std::to_string(i), std::string(4000, 'x')));
    }
    REQUIRE(txn->Commit());
  }
  MDB_env* raw = nullptr;
  REQUIRE(mdb_env_create(&raw) == 0);
  mdb_env_set_maxdbs(raw, 8);
  mdb_env_set_mapsize(raw, kMiB);
  REQUIRE(mdb_env_open(raw, path.c_str(), MDB_NOTLS, 0644) == 0);
  MDB_envinfo info{};
  MDB_stat stat{};
  REQUIRE(mdb_env_info(raw, &info) == 0);
  REQUIRE(mdb_env_stat(raw, &stat) == 0);
  mdb_env_close(raw);
  const std::uint64_t used = (info.me_last_pgno + 1) * stat.ms_psize;
  CHECK(used > 3 * kMiB);
  CHECK(info.me_mapsize == used);  // not the 64 MiB the file records

  auto env = LmdbEnv::Open({path, 1024 * kMiB, Durability::kNone, 512, kMiB});
  REQUIRE(env);
  CHECK((*env)->map_size() == NextMapSize(used, 1024 * kMiB));
}

TEST_CASE(
    "map growth: one write larger than a doubling of the map succeeds, the map growing until it "
    "fits",
    "[storage]") {
  TempDir dir;
  auto store = Store::Open(SmallMap(dir.path() + "/data"), SystemClock::Instance());
  REQUIRE(store);
  TableInfo table = CreateTable(**store, "Big");
  constexpr std::size_t kPayload = 100 * 1000;
  int runs = 0;
  REQUIRE((*store)->Write([&](WriteContext& ctx) -> Result<void> {
    ++runs;
    for (std::int64_t seq = 0; seq < 300; ++seq) {  // 30 MB in one transaction
      if (auto put = ctx.PutEntity(table, MakeEntity(seq, kPayload, ctx.NextTimestamp())); !put) {
        return put;
      }
    }
    return {};
  }));
  const StoreStats stats = (*store)->Stats();
  CHECK(stats.map_growths >= 5);
  // Once inline (TryWrite hands a full map to the writer thread), then once per map it tried.
  CHECK(runs == static_cast<int>(stats.map_growths) + 2);
  CHECK(stats.map_size_bytes >= 30 * kMiB);
  CheckAll(**store, table, 300, kPayload);
}

TEST_CASE(
    "map growth: at its maximum the map fails the write with InsufficientAccountResources, "
    "nothing of it is visible and smaller writes go on",
    "[storage]") {
  TempDir dir;
  auto store = Store::Open(SmallMap(dir.path() + "/data", 8 * kMiB), SystemClock::Instance());
  REQUIRE(store);
  TableInfo table = CreateTable(**store, "Capped");
  auto huge = (*store)->Write([&](WriteContext& ctx) -> Result<void> {
    for (std::int64_t seq = 0; seq < 100; ++seq) {  // 10 MB: more than the whole map
      if (auto put = ctx.PutEntity(table, MakeEntity(seq, 100 * 1000, ctx.NextTimestamp())); !put) {
        return put;
      }
    }
    return {};
  });
  REQUIRE_FALSE(huge);
  CHECK(huge.error().code == ErrorCode::kInsufficientAccountResources);
  CHECK((*store)->Stats().map_size_bytes == 8 * kMiB);
  CheckAll(**store, table, 0, 0);
  REQUIRE(PutSeq(**store, table, 0, 1000));
  CheckAll(**store, table, 1, 1000);
}

TEST_CASE(
    "map growth: a group whose request finds the map full commits the requests before it, "
    "and that request and the rest run after the writer thread grew the map",
    "[storage]") {
  TempDir dir;
  auto store = Store::Open(SmallMap(dir.path() + "/data"), SystemClock::Instance());
  REQUIRE(store);
  TableInfo table = CreateTable(**store, "Group");
  auto put = [&](std::int64_t seq, std::size_t payload) -> WriteFn {
    return [&table, seq, payload](WriteContext& ctx) -> Result<void> {
      return ctx.PutEntity(table, MakeEntity(seq, payload, ctx.NextTimestamp()));
    };
  };
  std::vector<WriteFn> fns{put(0, 1000), put(1, 4 * kMiB), put(2, 1000)};
  auto results = (*store)->TryWriteGroup(fns);
  REQUIRE(results);
  REQUIRE(results->size() == 1);  // the first committed inline; the map is not grown inline
  CHECK(results->front());
  CHECK((*store)->Stats().map_growths == 0);
  REQUIRE(fns[1]);  // handed back untouched
  REQUIRE(fns[2]);
  CHECK((*store)->Write(std::move(fns[1])));
  CHECK((*store)->Write(std::move(fns[2])));
  CHECK((*store)->Stats().map_growths >= 1);
  auto view = (*store)->Read();
  REQUIRE(view);
  for (std::int64_t seq : {0, 2}) {
    auto got = (*view)->GetEntity(table, PartitionKey(seq), RowKey(seq));
    REQUIRE(got);
    REQUIRE(*got);
    CHECK(Intact(**got, seq, 1000));
  }
  auto big = (*view)->GetEntity(table, PartitionKey(1), RowKey(1));
  REQUIRE(big);
  REQUIRE(*big);
  CHECK(Intact(**big, 1, 4 * kMiB));
}

TEST_CASE(
    "map growth: a write run again after the map grew keeps only its last run's changes and "
    "Timestamps",
    "[storage]") {
  TempDir dir;
  auto store = Store::Open(SmallMap(dir.path() + "/data"), SystemClock::Instance());
  REQUIRE(store);
  TableInfo table = CreateTable(**store, "Counter");
  REQUIRE((*store)->Write([&](WriteContext& ctx) -> Result<void> {
    return ctx.PutEntity(table, Entity{"c", "c", ctx.NextTimestamp(), {{"N", EdmValue::Int64(0)}}});
  }));
  int runs = 0;
  DateTime last_stamp;
  REQUIRE((*store)->Write([&](WriteContext& ctx) -> Result<void> {
    ++runs;
    // Read, increment, write: a second run that saw the first one's write would store 2.
    auto counter = ctx.GetEntity(table, "c", "c");
    if (!counter) return tl::unexpected(counter.error());
    Entity next = **counter;
    next.properties.front().value.integer += 1;
    next.timestamp = last_stamp = ctx.NextTimestamp();
    if (auto ok = ctx.PutEntity(table, next); !ok) return ok;
    // Then more than the 1 MiB map holds.
    return ctx.PutEntity(table, MakeEntity(1, 3 * kMiB, ctx.NextTimestamp()));
  }));
  CHECK(runs >= 2);
  auto view = (*store)->Read();
  REQUIRE(view);
  auto counter = (*view)->GetEntity(table, "c", "c");
  REQUIRE(counter);
  REQUIRE(*counter);
  CHECK((*counter)->properties.front().value.integer == 1);
  CHECK((*counter)->timestamp == last_stamp);
}

TEST_CASE(
    "map growth: a store maps the system's initial map unless told otherwise, on POSIX its whole "
    "maximum",
    "[storage]") {
  TempDir dir;
  StoreOptions options;
  options.data_dir = dir.path() + "/data";
  options.map_size_bytes = 256 * kMiB;
  options.durability = Durability::kNone;
  auto store = Store::Open(options, SystemClock::Instance());
  REQUIRE(store);
  // platform::kInitialMapSize: kWholeMap on POSIX (no growth ever), 64 MiB on Windows.
  CHECK((*store)->Stats().map_size_bytes ==
        std::min(platform::kInitialMapSize, options.map_size_bytes));
}

}  // namespace
}  // namespace malachite::storage
