// Azurite's database file: its tables and typed entities.
#include "cli/azurite_db.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/datetime.h"
#include "tests/support/temp_dir.h"

namespace malachite::cli {
namespace {

using malachite::testing::TempDir;

using malachite::testing::WriteFile;

}  // namespace

TEST_CASE("azurite_db: tables and typed entities with their timestamps, base64 Guids decoded",
          "[cli]") {
  TempDir dir;
  WriteFile(dir.path() + "/__azurite_db_table__.json", R"({"filename":"x","collections":[
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

  WriteFile(dir.path() + "/bad.json", R"({"collections":[]})");
  CHECK(ReadAzuriteDb(dir.path() + "/bad.json").error().message ==
        dir.path() + "/bad.json has no $TABLES_COLLECTION$ (not Azurite's table database)");
}

}  // namespace malachite::cli
