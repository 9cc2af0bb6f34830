// Fixtures folders (--seed): files are tables, subfolders accounts.
#include "cli/seed_dir.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/temp_dir.h"

namespace malachite::cli {
namespace {

using malachite::testing::PathIn;
using malachite::testing::TempDir;

using malachite::testing::WriteFile;

}  // namespace

TEST_CASE("seed_dir: files are tables, subfolders accounts, bad lines name file and line",
          "[cli]") {
  TempDir dir;
  WriteFile(dir.path() + "/orders.jsonl", "{\"PartitionKey\":\"p\",\"RowKey\":\"1\"}\n");
  WriteFile(dir.path() + "/people.csv", "PartitionKey,RowKey,Age:Int32\np,1,30\np,2,31\n");
  WriteFile(dir.path() + "/README.md", "notes");
  WriteFile(dir.path() + "/acme/things.jsonl", "");
  std::vector<std::string> skipped;
  auto seed = LoadSeedDir(dir.path(), "devstoreaccount1", &skipped);
  REQUIRE(seed);
  std::string dump;
  for (const TableContent& t : *seed) {
    dump += t.account + "/" + t.table + ":" + std::to_string(t.entities.size()) + " ";
  }
  CHECK(dump == "acme/things:0 devstoreaccount1/orders:1 devstoreaccount1/people:2 ");
  CHECK(skipped == std::vector<std::string>{PathIn(dir.path(), "README.md") +
                                            " (not .jsonl, .ndjson or .csv)"});

  WriteFile(dir.path() + "/people.csv", "PartitionKey,RowKey,Age:Int32\np,1,30\np,2,old\n");
  CHECK(LoadSeedDir(dir.path(), "devstoreaccount1", nullptr).error().message ==
        PathIn(dir.path(), "people.csv") +
            ":3: InvalidInput: " + std::string(Describe(ErrorCode::kInvalidInput).message));
  WriteFile(dir.path() + "/people.csv", "");
  WriteFile(dir.path() + "/1x.jsonl", "");
  CHECK(LoadSeedDir(dir.path(), "devstoreaccount1", nullptr)
            .error()
            .message.starts_with(PathIn(dir.path(), "1x.jsonl") + ": '1x' is not a table name"));
}

}  // namespace malachite::cli
