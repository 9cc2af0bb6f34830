// The import and export engines against a real store in a temp dir (the offline target).
#include "cli/importer.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/checkpoint.h"
#include "cli/exporter.h"
#include "tests/support/temp_dir.h"

namespace malachite::cli {
namespace {

using malachite::testing::TempDir;

std::string Lines(int from, int to, const std::string& pk_prefix = "p") {
  std::string out;
  for (int i = from; i < to; ++i) {
    char pk[16];
    std::snprintf(pk, sizeof pk, "%03d", i / 10);
    out += R"({"PartitionKey":")" + pk_prefix + pk + R"(","RowKey":")" + std::to_string(1000 + i) +
           R"(","N@odata.type":"Edm.Int64","N":")" + std::to_string(9007199254740993 + i) + "\"}\n";
  }
  return out;
}

std::unique_ptr<TableTarget> Open(const std::string& dir) {
  auto target = OpenStoreTarget(dir, "devstoreaccount1", true);
  REQUIRE(target);
  return std::move(*target);
}

tl::expected<std::uint64_t, ImportError> Import(TableTarget& target, const std::string& text,
                                                Checkpoint& checkpoint,
                                                ImportMode mode = ImportMode::kUpsert) {
  // An in-memory checkpoint is one import's: a finished one would skip the file.
  std::istringstream in(text);
  auto source = OpenRecordSource(in, FileFormat::kJsonLines, false, text.size());
  REQUIRE(source);
  ImportOptions options;
  options.mode = mode;
  return ImportRecords(target, "orders", **source, options, checkpoint, "in.jsonl", "test");
}

std::string Export(TableTarget& target, FileFormat format) {
  std::ostringstream out;
  ExportOptions options;
  options.format = format;
  auto count = ExportTable(target, "orders", out, options, "test");
  REQUIRE(count);
  return out.str();
}

}  // namespace

TEST_CASE("import/export: export -> import -> export is byte-identical, JSON Lines and CSV",
          "[cli]") {
  TempDir dir;
  const std::string input = Lines(0, 250);
  Checkpoint none(""), other("");
  {
    auto target = Open(dir.path() + "/a");
    REQUIRE(Import(*target, input, none));
    CHECK(Export(*target, FileFormat::kJsonLines) == input);  // already in key order
  }
  auto a = Open(dir.path() + "/a");
  const std::string csv = Export(*a, FileFormat::kCsv);
  auto b = Open(dir.path() + "/b");
  std::istringstream in(csv);
  auto source = OpenRecordSource(in, FileFormat::kCsv, false, csv.size());
  REQUIRE(source);
  REQUIRE(ImportRecords(*b, "orders", **source, ImportOptions{}, other, "x.csv", "test"));
  CHECK(Export(*b, FileFormat::kCsv) == csv);
  CHECK(Export(*b, FileFormat::kJsonLines) == input);
}

TEST_CASE("import: a bad line stops before its group, the checkpoint resumes after the fix",
          "[cli]") {
  TempDir dir;
  auto target = Open(dir.path() + "/d");
  Checkpoint checkpoint(dir.path() + "/in.checkpoint");
  // Offline groups hold up to 1,000 entities: 2,000 good lines commit as two groups, and the
  // bad line 2,501 lies in the third, which must be written not at all.
  std::string text =
      Lines(0, 2500) + R"({"PartitionKey":"x","RowKey":"bad/key"})" + "\n" + Lines(2500, 2600);
  auto failed = Import(*target, text, checkpoint);
  REQUIRE_FALSE(failed);
  CHECK(failed.error().line == 2501);
  CHECK(failed.error().error.code == ErrorCode::kOutOfRangeInput);
  std::string exported = Export(*target, FileFormat::kJsonLines);
  CHECK(exported == Lines(0, 2000));
  {
    Checkpoint saved(dir.path() + "/in.checkpoint");
    REQUIRE(saved.Load());
    CHECK(saved.Get("in.jsonl").line == 2001);
    CHECK_FALSE(saved.Get("in.jsonl").done);
  }
  // Fix the line (same length, same offsets) and resume from the checkpoint.
  const std::size_t bad = text.find("bad/key");
  text.replace(bad, 7, "bad-key");
  Checkpoint resumed(dir.path() + "/in.checkpoint");
  REQUIRE(resumed.Load());
  auto done = Import(*target, text, resumed);
  REQUIRE(done);
  CHECK(*done == 601);
  CHECK(resumed.Get("in.jsonl").done);
  CHECK(Export(*target, FileFormat::kJsonLines).size() ==
        Lines(0, 2600).size() + std::string(R"({"PartitionKey":"x","RowKey":"bad-key"})").size() +
            1);
}

TEST_CASE("import: --mode insert refuses an existing entity with EntityAlreadyExists and its line",
          "[cli]") {
  TempDir dir;
  auto target = Open(dir.path() + "/d");
  Checkpoint first(""), second(""), third("");
  REQUIRE(Import(*target, Lines(0, 5), first));
  auto again = Import(*target, Lines(3, 4), second, ImportMode::kInsert);
  REQUIRE_FALSE(again);
  CHECK(again.error().error.code == ErrorCode::kEntityAlreadyExists);
  CHECK(again.error().line == 1);
  // Merge keeps the properties the line does not name.
  REQUIRE(Import(*target,
                 R"({"PartitionKey":"p000","RowKey":"1001","M":true})"
                 "\n",
                 third, ImportMode::kMerge));
  CHECK(
      Export(*target, FileFormat::kJsonLines)
          .find(
              R"({"PartitionKey":"p000","RowKey":"1001","N@odata.type":"Edm.Int64","N":"9007199254740994","M":true})") !=
      std::string::npos);
}

TEST_CASE("import: offline, a running store's data dir is refused with what to do instead",
          "[cli]") {
  TempDir dir;
  auto first = Open(dir.path() + "/d");
  auto second = OpenStoreTarget(dir.path() + "/d", "devstoreaccount1", true);
  REQUIRE_FALSE(second);
  CHECK(second.error().message ==
        "data directory " + dir.path() +
            "/d is in use by a running server: stop it first, or go through the server with "
            "--endpoint URL or --connection-string");
  auto missing = OpenStoreTarget(dir.path() + "/none", "devstoreaccount1", false);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message == "data directory " + dir.path() + "/none holds no store");
}

}  // namespace malachite::cli
