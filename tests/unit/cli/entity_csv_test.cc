// CSV: typed headers, every EDM type exact, the service's errors for bad headers and rows.
#include "cli/entity_csv.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

#include "cli/entity_reader.h"
#include "common/datetime.h"
#include "common/encoding.h"
#include "tests/unit/cli/every_type.h"

namespace malachite::cli {
namespace {

using testing::EveryType;

}  // namespace

TEST_CASE("entity_csv: typed headers, one column per name and type, absent vs empty cells",
          "[cli]") {
  Entity a = EveryType();
  Entity b{"p2", "r", {}, {{"S", EdmValue::String("")}, {"I32", EdmValue::String("now text")}}};
  CsvLayout layout;
  layout.Add(a);
  layout.Add(b);
  std::string csv = CsvHeader(layout.columns(), false);
  AppendCsvRow(csv, a, layout.columns(), false);
  AppendCsvRow(csv, b, layout.columns(), false);
  CHECK(csv ==
        "PartitionKey,RowKey,S:String,I32:Int32,I64:Int64,D:Double,DI:Double,Neg0:Double,"
        "NaN:Double,Inf:Double,B:Boolean,T:DateTime,G:Guid,Bin:Binary,I32:String\n"
        "p'1,\"\",\"a,b\"\"c\nd\",-7,9007199254740993,0.1,3.0,-0.0,NaN,-Infinity,true,"
        "2024-01-02T03:04:05.1234567Z,01234567-89ab-cdef-0123-456789abcdef,AAH/,\n"
        "p2,r,\"\",,,,,,,,,,,,now text\n");

  std::istringstream in(csv);
  auto source = OpenRecordSource(in, FileFormat::kCsv, false, csv.size());
  REQUIRE(source);
  auto first = (*source)->Next();
  REQUIRE(first);
  REQUIRE(*first);
  CHECK((*first)->entity == a);
  CHECK((*first)->line == 2);
  auto second = (*source)->Next();
  REQUIRE(second);
  REQUIRE(*second);
  CHECK((*second)->entity == b);
  CHECK((*second)->line == 4);  // the quoted newline made row 1 two lines long
  CHECK(!*(*source)->Next());
}

TEST_CASE("entity_csv: bad headers and rows name their line and the service's error", "[cli]") {
  auto first_error = [](const std::string& csv) {
    std::istringstream in(csv);
    auto source = OpenRecordSource(in, FileFormat::kCsv, false, 0);
    if (!source) {
      return std::to_string(source.error().line) + " " + source.error().error.message;
    }
    for (;;) {
      auto next = (*source)->Next();
      if (!next) {
        return std::to_string(next.error().line) + " " +
               std::string(next.error().error.AzureCode());
      }
      if (!*next) return std::string("none");
    }
  };
  CHECK(first_error("RowKey,Name\n") == "1 CSV header has no PartitionKey column");
  CHECK(first_error("PartitionKey,RowKey,Q:Decimal\n") ==
        "1 unknown type in CSV header 'Q:Decimal'");
  CHECK(first_error("PartitionKey,RowKey,Q:Int64\np,1,5\np,2,five\n") == "3 InvalidInput");
  CHECK(first_error("PartitionKey,RowKey\np,1,extra\n") == "2 InvalidInput");
  CHECK(first_error("PartitionKey,RowKey\np,\"1\n") == "2 InvalidInput");
  CHECK(first_error("PartitionKey,RowKey,Name\r\np,1,x\r\n\r\np,2,y\r\n") == "none");
}

}  // namespace malachite::cli
