// The proof for issue 39 (a map that grows with the data, storage/FORMAT.md "The map grows as
// needed"), hidden from ctest ([.]): loads about 2 GB of entities through the Store API into a
// store started with the 64 MiB map Windows starts with, prints the data file's size, the map's
// size and the entity bytes, then reopens the store and counts everything back.
//
//   build/Release/tests/unit/storage/storage_test "[load]"
//   MALACHITE_LOAD_MB=512 MALACHITE_LOAD_DIR=/big/disk storage_test "[load]"
//
// MALACHITE_LOAD_MB: entity bytes to load (default 2000); MALACHITE_LOAD_DIR: where the store
// goes (default: a temp dir, removed afterwards).
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "storage/store.h"
#include "tests/support/temp_dir.h"

namespace malachite::storage {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::size_t kPayload = 900;
constexpr std::int64_t kPerWrite = 100;  // entities per WriteFn, as a $batch carries
constexpr int kWriters = 4;

std::uint64_t EnvNumber(const char* name, std::uint64_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::strtoull(value, nullptr, 10) : fallback;
}

std::string Keyed(const char* prefix, std::int64_t n, int width) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%0*lld", prefix, width, static_cast<long long>(n));
  return buf;
}

Entity LoadEntity(std::int64_t n, DateTime timestamp) {
  std::string payload(kPayload, '\0');
  for (std::size_t i = 0; i < kPayload; ++i) payload[i] = static_cast<char>((n + i * 31) & 0xff);
  return Entity{Keyed("p", n / 1000, 6),
                Keyed("r", n, 9),
                timestamp,
                {{"Name", EdmValue::String("entity number " + std::to_string(n))},
                 {"Qty", EdmValue::Int32(static_cast<std::int32_t>(n % 1000))},
                 {"Payload", EdmValue::Binary(std::move(payload))}}};
}

// The bytes a client sent for an entity: its keys and its property values.
std::uint64_t EntityBytes(const Entity& e) {
  std::uint64_t bytes = e.partition_key.size() + e.row_key.size() + 8;
  for (const Property& p : e.properties) {
    const bool sized = p.value.type == EdmType::kString || p.value.type == EdmType::kBinary;
    bytes += p.name.size() + (sized ? p.value.bytes.size() : 8);
  }
  return bytes;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

TEST_CASE("map growth load: 2 GB of entities from a 64 MiB map, then a reopen counts them all",
          "[.][load]") {
  const std::uint64_t target = EnvNumber("MALACHITE_LOAD_MB", 2000) * 1000 * 1000;
  std::optional<testing::TempDir> temp;
  std::string root;
  if (const char* dir = std::getenv("MALACHITE_LOAD_DIR"); dir != nullptr && *dir != '\0') {
    root = dir;
  } else {
    temp.emplace("malachite-load");
    root = temp->path();
  }
  StoreOptions options;
  options.data_dir = root + "/data";
  options.initial_map_size_bytes = 64 * kMiB;
  std::atomic<std::uint64_t> growths_seen{0};
  options.on_map_growth = [&](std::uint64_t from, std::uint64_t to) {
    growths_seen.fetch_add(1);
    std::printf("  map grew %llu -> %llu MiB\n", static_cast<unsigned long long>(from / kMiB),
                static_cast<unsigned long long>(to / kMiB));
  };
  const std::uint64_t per_entity = EntityBytes(LoadEntity(0, DateTime{}));
  const std::int64_t count = static_cast<std::int64_t>(target / per_entity) / kPerWrite * kPerWrite;

  std::uint64_t entity_bytes = 0;
  {
    auto store = Store::Open(options, SystemClock::Instance());
    REQUIRE(store);
    TableInfo table;
    REQUIRE((*store)->Write([&](WriteContext& ctx) -> Result<void> {
      table = **ctx.CreateTable("acct", "Load");
      return {};
    }));
    const auto start = std::chrono::steady_clock::now();
    std::atomic<std::int64_t> next{0};
    std::atomic<std::uint64_t> bytes{0};
    std::atomic<int> failed{0};
    std::vector<std::thread> writers;
    for (int w = 0; w < kWriters; ++w) {
      writers.emplace_back([&] {
        for (std::int64_t first; (first = next.fetch_add(kPerWrite)) < count;) {
          std::uint64_t written = 0;
          auto ok = (*store)->Write([&](WriteContext& ctx) -> Result<void> {
            written = 0;  // a run again after a growth counts afresh
            for (std::int64_t n = first; n < first + kPerWrite; ++n) {
              Entity e = LoadEntity(n, ctx.NextTimestamp());
              written += EntityBytes(e);
              if (auto put = ctx.PutEntity(table, e); !put) return put;
            }
            return {};
          });
          if (ok) {
            bytes.fetch_add(written);
          } else {
            failed.fetch_add(1);
          }
        }
      });
    }
    for (std::thread& writer : writers) writer.join();
    const double load_seconds = Seconds(start);
    REQUIRE(failed.load() == 0);
    entity_bytes = bytes.load();
    const StoreStats stats = (*store)->Stats();
    const std::uint64_t file = std::filesystem::file_size(options.data_dir + "/data.mdb");
    std::printf(
        "loaded %lld entities, %.1f MB of entity bytes, in %.1f s (%.0f entities/s)\n"
        "map %.1f MiB after %llu growths from 64 MiB; data.mdb %.1f MiB (%.2f x the entity "
        "bytes)\n",
        static_cast<long long>(count), entity_bytes / 1e6, load_seconds, count / load_seconds,
        stats.map_size_bytes / double(kMiB), static_cast<unsigned long long>(stats.map_growths),
        file / double(kMiB), file / double(entity_bytes));
    CHECK(stats.map_growths == growths_seen.load());
    CHECK(stats.map_size_bytes <= 2 * file + 64 * kMiB);
  }

  const auto start = std::chrono::steady_clock::now();
  auto store = Store::Open(options, SystemClock::Instance());
  REQUIRE(store);
  const std::uint64_t reopened_map = (*store)->Stats().map_size_bytes;
  auto view = (*store)->Read();
  REQUIRE(view);
  auto table = (*view)->FindTable("acct", "Load");
  REQUIRE(table);
  REQUIRE(*table);
  std::int64_t counted = 0;
  std::uint64_t counted_bytes = 0;
  REQUIRE((*view)->ScanEntities(**table, {}, [&](const EntityView& e) {
    counted_bytes += EntityBytes(e.Decode());
    ++counted;
    return true;
  }));
  std::printf(
      "reopened with a 64 MiB initial map: map %.1f MiB; counted %lld entities, %.1f MB, "
      "in %.1f s\n",
      reopened_map / double(kMiB), static_cast<long long>(counted), counted_bytes / 1e6,
      Seconds(start));
  CHECK(counted == count);
  CHECK(counted_bytes == entity_bytes);
}

}  // namespace
}  // namespace malachite::storage
