// Upgrades (storage/FORMAT.md, "Format versions and upgrades"): the data directory written by the
// release that introduced format version 1 (tests/data/format-v1) opens in this build and reads
// back exactly as tests/data/format-v1/expected-content.txt says, Timestamps and all. Never
// regenerate either file: a new format version gets a directory of its own beside this one.
#include <lmdb.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "common/clock.h"
#include "storage/dump_text.h"
#include "storage/entity_record_dump.h"
#include "storage/key_codec.h"
#include "storage/store.h"
#include "tests/support/temp_dir.h"

namespace malachite::storage {
namespace {

const std::string kFixtureDir = std::string(MALACHITE_TEST_DATA_DIR) + "/format-v1";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Escaped(const std::optional<std::string>& bytes) {
  if (!bytes) return "none";
  std::string out = "\"";
  AppendDumpEscaped(&out, *bytes);
  return out + "\"";
}

// Every table of `account` with its ACL record and its entities (keys, then the record dump).
void DumpAccount(ReadView& view, const std::string& account, std::string* out) {
  auto properties = view.GetServiceProperties(account);
  REQUIRE(properties);
  *out += "account " + account + " service properties " + Escaped(*properties) + "\n";
  std::vector<TableInfo> tables;
  REQUIRE(view.ScanTables(account, "", [&](const TableInfo& table) {
    tables.push_back(table);
    return true;
  }));
  for (const TableInfo& table : tables) {
    auto acl = view.GetTableAcl(table);
    REQUIRE(acl);
    *out += "table " + account + "/" + table.name + " id=" + std::to_string(table.id) + " acl " +
            Escaped(*acl) + "\n";
    REQUIRE(view.ScanEntities(table, KeyRange{}, [&](const EntityView& entity) {
      *out += "  pk=" + Escaped(std::string(entity.partition_key())) +
              " rk=" + Escaped(std::string(entity.row_key())) + " " +
              DumpEntityRecord(entity.EncodedRecord()) + "\n";
      return true;
    }));
  }
}

// What the store serves: the accounts made at run time, then devstoreaccount1 and each of them.
std::string DumpContent(Store& store) {
  auto view = store.Read();
  REQUIRE(view);
  std::string out;
  std::vector<std::string> accounts = {"devstoreaccount1"};
  REQUIRE((*view)->ScanRuntimeAccounts([&](std::string_view name, std::string_view record) {
    out += "runtime account " + std::string(name) + " " + Escaped(std::string(record)) + "\n";
    accounts.emplace_back(name);
  }));
  for (const std::string& account : accounts) DumpAccount(**view, account, &out);
  return out;
}

// Writes into `out` (a new directory) the store of `dir` as a newer build might leave it:
// format_version `version` and no `reclaim` database (so opening it the old way would create
// one). A compact copy: data.mdb ends at its last page (as on Linux; the open here sets the end
// of `dir`'s file to the map on Windows), and `out` holds nothing else.
void MakeNewerStore(const std::string& dir, std::uint64_t version, const std::string& out) {
  MDB_env* env = nullptr;
  REQUIRE(mdb_env_create(&env) == 0);
  mdb_env_set_maxdbs(env, 8);
  // An explicit small map: the file records the store's 1 TiB map, which qemu-user (the aarch64
  // unit tests) cannot reserve; LMDB grows a set size to the committed data when needed.
  REQUIRE(mdb_env_set_mapsize(env, std::size_t{64} << 20) == 0);
  REQUIRE(mdb_env_open(env, dir.c_str(), 0, 0644) == 0);
  MDB_txn* txn = nullptr;
  REQUIRE(mdb_txn_begin(env, nullptr, 0, &txn) == 0);
  MDB_dbi meta = 0;
  MDB_dbi reclaim = 0;
  REQUIRE(mdb_dbi_open(txn, "meta", 0, &meta) == 0);
  REQUIRE(mdb_dbi_open(txn, "reclaim", 0, &reclaim) == 0);
  std::string key = "format_version";
  std::string value;
  AppendU64BE(&value, version);
  MDB_val k{key.size(), key.data()};
  MDB_val v{value.size(), value.data()};
  REQUIRE(mdb_put(txn, meta, &k, &v, 0) == 0);
  REQUIRE(mdb_drop(txn, reclaim, 1) == 0);
  REQUIRE(mdb_txn_commit(txn) == 0);
  std::filesystem::create_directories(out);
  REQUIRE(mdb_env_copy2(env, out.c_str(), MDB_CP_COMPACT) == 0);
  mdb_env_close(env);
}

// Every file of `dir` by name, with its bytes.
std::map<std::string, std::string> FilesIn(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    files[entry.path().filename().string()] = ReadFile(entry.path().string());
  }
  return files;
}

// A copy of the committed data directory in `dir` (opening the committed file would write to it).
std::string CopyOfFixture(const testing::TempDir& dir) {
  const std::string data_dir = dir.path() + "/data";
  std::filesystem::create_directories(data_dir);
  std::filesystem::copy_file(kFixtureDir + "/data.mdb", data_dir + "/data.mdb");
  return data_dir;
}

}  // namespace

TEST_CASE(
    "format v1: the data directory written by release 0.1.0 opens and serves its content exactly",
    "[storage][format]") {
  testing::TempDir dir("malachite-format-v1");
  const std::string data_dir = CopyOfFixture(dir);
  StoreOptions options;
  options.data_dir = data_dir;
  options.durability = Durability::kNone;
  options.space_reserve_bytes = 0;
  auto store = Store::Open(options, SystemClock::Instance());
  REQUIRE(store);
  const std::string content = DumpContent(**store);
  // MALACHITE_FORMAT_DUMP_TO=<file>: also write what was read, to make a new version's expected
  // file (FORMAT.md, "Format versions and upgrades").
  if (const char* dump_to = std::getenv("MALACHITE_FORMAT_DUMP_TO")) {
    std::ofstream(dump_to, std::ios::binary) << content;
  }
  CHECK(content == ReadFile(kFixtureDir + "/expected-content.txt"));

  // The deleted table "Gone" (id 3) stays deleted and its id is not given again.
  auto created = (*store)->Write([](WriteContext& ctx) -> Result<void> {
    auto gone = ctx.FindTable("devstoreaccount1", "Gone");
    if (!gone || *gone) return Fail(ErrorCode::kInternalError, "Gone is back");
    auto table = ctx.CreateTable("devstoreaccount1", "Gone");
    if (!table || !*table || (*table)->id != 5) {
      return Fail(ErrorCode::kInternalError, "the new Gone is not table 5");
    }
    return {};
  });
  CHECK(created);
}

TEST_CASE(
    "format version: a store of a newer version is refused in one line naming both versions, "
    "and its directory is left byte for byte as it was",
    "[storage][format]") {
  testing::TempDir dir("malachite-format-newer");
  const std::string data_dir = dir.path() + "/newer";
  MakeNewerStore(CopyOfFixture(dir), 2, data_dir);
  const std::map<std::string, std::string> before = FilesIn(data_dir);
  REQUIRE(before.size() == 1);
  StoreOptions options;
  options.data_dir = data_dir;
  options.durability = Durability::kNone;
  auto store = Store::Open(options, SystemClock::Instance());
  REQUIRE_FALSE(store);
  CHECK(store.error().message ==
        "data directory " + data_dir +
            ": storage format version 2 was written by a newer malachite; this build reads "
            "version 1: run that release or a newer one (nothing was changed)");
  // Every file as it was, data.mdb's size too (on Windows a read-write open would set it to the
  // map's); the one addition is the data-dir lock, empty (storage/FORMAT.md).
  std::map<std::string, std::string> after = FilesIn(data_dir);
  REQUIRE(after.count("data.mdb") == 1);
  CHECK(after["data.mdb"].size() == before.at("data.mdb").size());
  REQUIRE(after.count("malachite.lock") == 1);
  CHECK(after["malachite.lock"].empty());
  after.erase("malachite.lock");
  CHECK(after == before);
}

}  // namespace malachite::storage
