// Connection strings, Azurite's database file and fixtures folders.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "cli/azurite_db.h"
#include "cli/connection_string.h"
#include "cli/seed_dir.h"
#include "common/datetime.h"
#include "tests/support/temp_dir.h"

namespace malachite::cli {
namespace {

using malachite::testing::TempDir;

std::string Dump(const TableEndpoint& e) {
  return e.BaseUrl() + " account=" + e.account + " key=" + (e.key.empty() ? "no" : "yes") +
         " sas=" + e.sas;
}

void Write(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

}  // namespace

TEST_CASE("connection_string: the emulator shorthand, explicit endpoints, Azure and SAS", "[cli]") {
  CHECK(Dump(*ParseConnectionString("UseDevelopmentStorage=true")) ==
        "http://127.0.0.1:10002/devstoreaccount1 account=devstoreaccount1 key=yes sas=");
  CHECK(Dump(*ParseConnectionString(
            "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=a2V5;"
            "TableEndpoint=http://127.0.0.1:4000/devstoreaccount1;")) ==
        "http://127.0.0.1:4000/devstoreaccount1 account=devstoreaccount1 key=yes sas=");
  CHECK(Dump(*ParseConnectionString("DefaultEndpointsProtocol=https;AccountName=acme;AccountKey="
                                    "a2V5;EndpointSuffix=core.windows.net")) ==
        "https://acme.table.core.windows.net account=acme key=yes sas=");
  CHECK(Dump(*ParseConnectionString("TableEndpoint=https://acme.table.core.windows.net/"
                                    ";SharedAccessSignature=sv=2019&sig=x")) ==
        "https://acme.table.core.windows.net account=acme key=no sas=sv=2019&sig=x");
  CHECK(ParseConnectionString("AccountName=acme").error().message ==
        "the connection string has neither AccountKey nor SharedAccessSignature");
  CHECK(ParseConnectionString("garbage").error().message ==
        "connection string part 'garbage' is not name=value");
  CHECK(EndpointFromUrl("ftp://x", "", "a2V5", "").error().message ==
        "'ftp://x' is not an http(s) URL");
}

TEST_CASE("azurite_db: tables and typed entities with their timestamps, base64 Guids decoded",
          "[cli]") {
  TempDir dir;
  Write(dir.path() + "/__azurite_db_table__.json", R"({"filename":"x","collections":[
    {"name":"$TABLES_COLLECTION$","data":[{"account":"devstoreaccount1","table":"Orders"},
                                          {"account":"other","table":"t"}]},
    {"name":"devstoreaccount1$Orders","data":[{"PartitionKey":"p","RowKey":"r",
      "properties":{"PartitionKey":"p","RowKey":"r","N":"9007199254740993","N@odata.type":"Edm.Int64",
        "G":"MDEyMzQ1NjctODlhYi1jZGVmLTAxMjMtNDU2Nzg5YWJjZGVm","G@odata.type":"Edm.Guid",
        "D":3,"D@odata.type":"Edm.Double","Timestamp":"2024-01-02T03:04:05.1234567Z",
        "Timestamp@odata.type":"Edm.DateTime"},
      "lastModifiedTime":"2024-01-02T03:04:05.1234567Z","eTag":"W/\"x\""}]}]})");
  auto tables = ReadAzuriteDb(dir.path());
  REQUIRE(tables);
  REQUIRE(tables->size() == 2);
  const TableContent& orders = (*tables)[0];
  CHECK(orders.account == "devstoreaccount1");
  CHECK(orders.table == "Orders");
  REQUIRE(orders.entities.size() == 1);
  const Entity& e = orders.entities[0];
  CHECK(e.Find("N")->value == EdmValue::Int64(9007199254740993));
  CHECK(e.Find("G")->value.type == EdmType::kGuid);
  CHECK(e.Find("D")->value == EdmValue::Double(3));
  CHECK(e.timestamp == *ParseIso8601("2024-01-02T03:04:05.1234567Z"));
  CHECK((*tables)[1].entities.empty());

  Write(dir.path() + "/bad.json", R"({"collections":[]})");
  CHECK(ReadAzuriteDb(dir.path() + "/bad.json").error().message ==
        dir.path() + "/bad.json has no $TABLES_COLLECTION$ (not Azurite's table database)");
}

TEST_CASE("seed_dir: files are tables, subfolders accounts; bad lines name file and line",
          "[cli]") {
  TempDir dir;
  Write(dir.path() + "/orders.jsonl", "{\"PartitionKey\":\"p\",\"RowKey\":\"1\"}\n");
  Write(dir.path() + "/people.csv", "PartitionKey,RowKey,Age:Int32\np,1,30\np,2,31\n");
  Write(dir.path() + "/README.md", "notes");
  Write(dir.path() + "/acme/things.jsonl", "");
  std::vector<std::string> skipped;
  auto seed = LoadSeedDir(dir.path(), "devstoreaccount1", &skipped);
  REQUIRE(seed);
  std::string dump;
  for (const TableContent& t : *seed) {
    dump += t.account + "/" + t.table + ":" + std::to_string(t.entities.size()) + " ";
  }
  CHECK(dump == "acme/things:0 devstoreaccount1/orders:1 devstoreaccount1/people:2 ");
  CHECK(skipped ==
        std::vector<std::string>{dir.path() + "/README.md (not .jsonl, .ndjson or .csv)"});

  Write(dir.path() + "/people.csv", "PartitionKey,RowKey,Age:Int32\np,1,30\np,2,old\n");
  CHECK(LoadSeedDir(dir.path(), "devstoreaccount1", nullptr).error().message ==
        dir.path() + "/people.csv:3: InvalidInput: " +
            std::string(Describe(ErrorCode::kInvalidInput).message));
  Write(dir.path() + "/people.csv", "");
  Write(dir.path() + "/1x.jsonl", "");
  CHECK(LoadSeedDir(dir.path(), "devstoreaccount1", nullptr)
            .error()
            .message.starts_with(dir.path() + "/1x.jsonl: '1x' is not a table name"));
}

}  // namespace malachite::cli
