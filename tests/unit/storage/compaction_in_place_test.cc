// Compaction while the store serves (Store::Compact, StoreOptions::compact_while_serving;
// storage/FORMAT.md, "Getting disk space back"), on real LMDB in temp dirs.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "platform/map_size.h"
#include "storage/compaction.h"
#include "tests/support/store_fixture.h"
#include "tests/unit/storage/store_content.h"

namespace malachite::storage {
namespace {

using testing::StoreFixture;
namespace fs = std::filesystem;

// A live table of 2,000 entities rewritten twice, and 40,000 written and deleted beside it:
// about 12 MiB of the file free, 1 MiB live.
TableInfo Churn(StoreFixture& f) {
  TableInfo live = f.CreateTable("acct", "Live");
  Fill(f.store(), live, 2000, 0);
  for (int round = 0; round < 2; ++round) {
    TableInfo churn = f.CreateTable("acct", "Churn");
    Fill(f.store(), churn, 20000, round);
    REQUIRE(f.DeleteTable("acct", "Churn"));
    f.store().WaitForReclaim();
    Fill(f.store(), live, 2000, 100 * round);
  }
  return live;
}

std::uint64_t FreePagesNow(StoreFixture& f) {
  f.Reopen();  // a new store reads the figures afresh (a running one at most once a second)
  return f.store().Stats().pages_free;
}

}  // namespace

TEST_CASE("compaction in place: a serving store gives its free pages back and serves the same",
          "[storage][compaction]") {
  StoreFixture f;
  const TableInfo live = Churn(f);
  const std::string file = f.dir() + "/data/data.mdb";
  CHECK(FreePagesNow(f) * 4096 > 8u << 20);
  const std::string before = Content(f.store());
  const std::uint64_t size_before = fs::file_size(file);
  const StoreGeneration generation = f.store().Generation();

  auto done = f.store().Compact();
  INFO((done ? std::string() : done.error().message));
  REQUIRE(done);
  CHECK_FALSE(done->at_open);
  CHECK(done->bytes_before == size_before);
  CHECK(done->bytes_after == fs::file_size(file));
  if (platform::kMappedFileTakesDisk) {
    // On Windows the file is as large as the map, which starts at 64 MiB: back to that.
    CHECK(done->bytes_after <= std::max<std::uint64_t>(size_before, 64u << 20));
  } else {
    CHECK(done->bytes_after < size_before / 3);
  }
  const StoreStats compacted = f.store().Stats();
  CHECK((compacted.pages_live + compacted.pages_free) * 4096 < size_before / 3);
  // Same store, same content, same catalog generation (caches above stay valid); the free list
  // is gone at once, without waiting for a scrape's second.
  CHECK(f.store().Stats().pages_free < 8);
  CHECK(f.store().Stats().compactions == 1);
  CHECK(f.store().Generation() == generation);
  CHECK(Content(f.store()) == before);
  for (const auto& entry : fs::directory_iterator(f.dir() + "/data")) {
    CHECK(entry.path().filename().string().rfind(".compact-", 0) != 0);
  }

  // It goes on serving: writes, a new table (the next id), reads; and a reopen finds it all.
  f.Put(live, "new", "row");
  TableInfo next = f.CreateTable("acct", "Next");
  CHECK(next.id == live.id + 3);  // Live, Churn x2 took the ids before it
  f.Put(next, "a", "b");
  const std::string after = Content(f.store());
  f.Reopen();
  CHECK(Content(f.store()) == after);
  CHECK(f.Keys(next) == std::vector<std::string>{"a/b"});
}

TEST_CASE("compaction in place: readers and writers on other threads go on and lose nothing",
          "[storage][compaction]") {
  StoreFixture f;
  const TableInfo live = Churn(f);
  const TableInfo counted = f.CreateTable("acct", "Counted");
  std::atomic<bool> stop{false};
  std::atomic<int> acknowledged{0};
  std::atomic<int> read_errors{0};
  std::atomic<long> reads{0};
  std::thread writer([&] {
    for (int i = 0; !stop.load(); ++i) {
      auto ok = f.store().Write([&, i](WriteContext& ctx) -> Result<void> {
        Entity e{"p", std::to_string(100000 + i), ctx.NextTimestamp(), {}};
        return ctx.PutEntity(counted, e);
      });
      if (!ok) break;
      acknowledged = i + 1;
    }
  });
  std::vector<std::thread> readers;
  for (int t = 0; t < 2; ++t) {
    readers.emplace_back([&] {
      while (!stop.load()) {
        auto view = f.store().Read();
        if (!view) {
          ++read_errors;
          continue;
        }
        auto got = (*view)->GetEntity(live, "p7", "701");
        if (!got || !*got) ++read_errors;
        ++reads;
      }
    });
  }
  for (int round = 0; round < 3; ++round) {
    auto done = f.store().Compact();
    INFO((done ? std::string() : done.error().message));
    REQUIRE(done);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  stop = true;
  writer.join();
  for (std::thread& t : readers) t.join();
  CHECK(read_errors == 0);
  CHECK(reads > 0);
  CHECK(f.store().Stats().compactions == 3);
  // Every acknowledged write is there, before and after a reopen.
  const int written = acknowledged.load();
  CHECK(written > 0);
  CHECK(f.Keys(counted).size() == static_cast<std::size_t>(written));
  f.Reopen();
  CHECK(f.Keys(counted).size() == static_cast<std::size_t>(written));
}

TEST_CASE("compaction in place: the store compacts itself when it pays, and says so",
          "[storage][compaction]") {
  StoreFixture f;
  const TableInfo live = Churn(f);
  const std::string before = Content(f.store());
  f.Close();
  StoreOptions options = f.Options();
  options.compact_while_serving = true;
  options.compaction_check_interval = std::chrono::milliseconds(20);
  options.compaction_min_interval = std::chrono::milliseconds(0);
  std::atomic<int> reports{0};
  std::atomic<bool> bad_report{false};
  options.on_compaction = [&](const CompactionReport& report) {
    if (report.at_open || report.error || report.bytes_after > report.bytes_before) {
      bad_report = true;
    }
    ++reports;
  };
  auto store = Store::Open(options, SystemClock::Instance());
  REQUIRE(store);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while ((*store)->Stats().compactions == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE((*store)->Stats().compactions == 1);
  CHECK(reports == 1);
  CHECK_FALSE(bad_report);
  CHECK(Content(**store) == before);
  // Compacted, it does not pay again: more checks pass without another compaction.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK((*store)->Stats().compactions == 1);
  CHECK(reports == 1);
  (void)live;
}

TEST_CASE("compaction in place: what pays while serving", "[storage][compaction]") {
  PageStats pages{4096, 8192, 2048, 10};  // 32 MiB, 8 MiB free, 24 MiB live
  CHECK(CompactionPaysWhileServing(pages));
  pages.pages_free = 2047;  // under 8 MiB free
  CHECK_FALSE(CompactionPaysWhileServing(pages));
  pages = {4096, 100'000, 20'000, 10};  // a fifth free
  CHECK_FALSE(CompactionPaysWhileServing(pages));
  pages = {4096, 200'000, 120'000, 10};  // 312 MiB live: the writes would wait too long
  CHECK_FALSE(CompactionPaysWhileServing(pages));
}

}  // namespace malachite::storage
