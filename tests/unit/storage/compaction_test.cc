// Compaction of a stopped data directory and the page figures of /-/metrics, on real LMDB in
// temp dirs (storage/FORMAT.md, "Getting disk space back").
#include "storage/compaction.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "platform/map_size.h"
#include "storage/data_dir_lock.h"
#include "tests/support/store_fixture.h"
#include "tests/unit/storage/store_content.h"

namespace malachite::storage {
namespace {

using testing::StoreFixture;
namespace fs = std::filesystem;

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("compaction: a churned store keeps exactly its content and data.mdb shrinks",
          "[storage][compaction]") {
  StoreFixture f;
  TableInfo live = f.CreateTable("acct", "Live");
  f.CreateTable("other", "Empty");
  Fill(f.store(), live, 2000, 0);
  for (int round = 0; round < 3; ++round) {
    TableInfo churn = f.CreateTable("acct", "Churn");
    Fill(f.store(), churn, 5000, round);
    REQUIRE(f.DeleteTable("acct", "Churn"));
    f.store().WaitForReclaim();
    Fill(f.store(), live, 2000, 100 * round);  // rewrites
  }
  const std::string before = Content(f.store());
  f.Close();
  const std::string data_dir = f.dir() + "/data";
  const auto size_before = fs::file_size(data_dir + "/data.mdb");

  auto done = CompactDataDir(data_dir);
  INFO((done ? std::string() : done.error().message));
  REQUIRE(done);
  CHECK(done->bytes_before == size_before);
  CHECK(done->bytes_after == fs::file_size(data_dir + "/data.mdb"));
  // 5,000 entities of ~300 bytes were written and deleted three times: their pages go.
  CHECK(done->bytes_after < size_before / 2);
  CHECK(done->census.find("entities=2000") != std::string::npos);
  CHECK(fs::is_regular_file(data_dir + "/malachite.lock"));
  // Nothing is left beside the store's files: no staging directory, no lock file of its own.
  for (const auto& entry : fs::directory_iterator(data_dir)) {
    const std::string name = entry.path().filename().string();
    CHECK((name == "data.mdb" || name == "malachite.lock" || name == "space.reserve"));
  }

  f.Reopen();
  CHECK(Content(f.store()) == before);
  // The store works on as before: a new table gets the next id, writes and reads go on.
  TableInfo next = f.CreateTable("acct", "Next");
  CHECK(next.id == live.id + 5);  // Live, Empty, Churn x3 took the ids before it
  f.Put(next, "a", "b");
  CHECK(f.Keys(next) == std::vector<std::string>{"a/b"});
}

TEST_CASE("compaction: the free pages /-/metrics shows go when deleting is followed by compact",
          "[storage][compaction]") {
  StoreFixture f;
  TableInfo churn = f.CreateTable("acct", "Churn");
  Fill(f.store(), churn, 5000, 0);
  const StoreStats full = f.store().Stats();
  CHECK(full.page_size_bytes > 0);
  CHECK(full.pages_live * full.page_size_bytes > 5000u * 256);
  REQUIRE(f.DeleteTable("acct", "Churn"));
  f.store().WaitForReclaim();
  f.Reopen();  // a new store reads the figures afresh (a running one at most once a second)
  const StoreStats deleted = f.store().Stats();
  CHECK(deleted.pages_free * deleted.page_size_bytes > 5000u * 256);
  CHECK(deleted.pages_live < full.pages_live / 4);
  // pages_live + pages_free is data.mdb's size in pages (where the file is as large as the map,
  // on Windows, its used part).
  const auto pages_bytes = (deleted.pages_live + deleted.pages_free) * deleted.page_size_bytes;
  if (platform::kMappedFileTakesDisk) {
    CHECK(pages_bytes <= fs::file_size(f.dir() + "/data/data.mdb"));
  } else {
    CHECK(pages_bytes == fs::file_size(f.dir() + "/data/data.mdb"));
  }
  f.Close();
  REQUIRE(CompactDataDir(f.dir() + "/data"));
  f.Reopen();
  const StoreStats compacted = f.store().Stats();
  CHECK(compacted.pages_free < 8);
  CHECK(compacted.pages_live <= deleted.pages_live + 8);
}

TEST_CASE("compaction: a directory a running store holds is refused and left as it was",
          "[storage][compaction]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "T");
  Fill(f.store(), t, 100, 0);
  const std::string file = f.dir() + "/data/data.mdb";
  const std::string bytes = FileBytes(file);
  auto refused = CompactDataDir(f.dir() + "/data");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find(kDataDirInUse) != std::string::npos);
  CHECK(FileBytes(file) == bytes);
  for (const auto& entry : fs::directory_iterator(f.dir() + "/data")) {
    CHECK(entry.path().filename().string().rfind(".compact-", 0) != 0);
  }
}

TEST_CASE("compaction: a directory without data.mdb is refused as invalid input",
          "[storage][compaction]") {
  testing::TempDir dir;
  auto refused = CompactDataDir(dir.path());
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ErrorCode::kInvalidInput);
  CHECK(refused.error().message == "data directory " + dir.path() + " holds no data.mdb");
}

TEST_CASE("compaction: the staging directory of a killed compaction is removed by the next",
          "[storage][compaction]") {
  StoreFixture f;
  TableInfo t = f.CreateTable("acct", "T");
  Fill(f.store(), t, 100, 0);
  const std::string before = Content(f.store());
  f.Close();
  // A kill before the rename leaves the old data.mdb and a staging directory with a partial copy.
  const std::string data_dir = f.dir() + "/data";
  fs::create_directories(data_dir + "/.compact-AbC123");
  std::ofstream(data_dir + "/.compact-AbC123/data.mdb") << "partial";
  REQUIRE(CompactDataDir(data_dir));
  CHECK_FALSE(fs::exists(data_dir + "/.compact-AbC123"));
  f.Reopen();
  CHECK(Content(f.store()) == before);
}

}  // namespace malachite::storage

namespace malachite::storage {

TEST_CASE(
    "compaction: a store pays for compaction at open when a quarter is free, free >= 16 MiB "
    "and live <= 1 GiB",
    "[storage][compaction]") {
  auto pays = [](std::uint64_t total, std::uint64_t free) {
    return CompactionPaysAtOpen(PageStats{4096, total, free, 1});
  };
  constexpr std::uint64_t kMiB = 256;  // pages of 4 KiB
  CHECK(pays(64 * kMiB, 16 * kMiB));
  CHECK_FALSE(pays(64 * kMiB, 16 * kMiB - 1));        // less than a quarter free
  CHECK_FALSE(pays(60 * kMiB, 15 * kMiB));            // less than 16 MiB free
  CHECK(pays(1024 * kMiB + 87382, 87382));            // 1 GiB live, a quarter free
  CHECK_FALSE(pays(1024 * kMiB + 1 + 87382, 87382));  // more live
}

TEST_CASE("compaction: a store left free by churn is compacted when it opens, unless told not",
          "[storage][compaction]") {
  StoreFixture f;
  TableInfo live = f.CreateTable("acct", "Live");
  Fill(f.store(), live, 1000, 0);
  TableInfo churn = f.CreateTable("acct", "Churn");
  Fill(f.store(), churn, 70000, 0);  // about 21 MiB
  REQUIRE(f.DeleteTable("acct", "Churn"));
  f.store().WaitForReclaim();
  const std::string before = Content(f.store());
  f.Close();
  const std::string file = f.dir() + "/data/data.mdb";
  const auto churned = fs::file_size(file);

  StoreOptions options = f.Options();  // compact_at_open is off unless asked
  {
    auto store = Store::Open(options, SystemClock::Instance());
    REQUIRE(store);
    CHECK((*store)->Stats().pages_free * 4096 > 16u << 20);
  }
  CHECK(fs::file_size(file) >= churned);

  options.compact_at_open = true;
  std::uint64_t from = 0, to = 0;
  options.on_compaction = [&](const CompactionReport& report) {
    CHECK(report.at_open);
    CHECK(!report.error);
    from = report.bytes_before, to = report.bytes_after;
  };
  {
    auto store = Store::Open(options, SystemClock::Instance());
    REQUIRE(store);
    CHECK(from >= churned);
    CHECK(to < churned / 4);
    CHECK((*store)->Stats().pages_free < 8);
    CHECK(Content(**store) == before);
  }
  // Compacted, it does not pay again: the next open leaves the file alone.
  from = 0;
  {
    auto store = Store::Open(options, SystemClock::Instance());
    REQUIRE(store);
    CHECK(from == 0);
  }
}

}  // namespace malachite::storage
