// JSON Lines: every EDM type exact, the service's errors for bad records.
#include "cli/entity_line.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "common/datetime.h"
#include "common/encoding.h"
#include "tests/unit/cli/every_type.h"

namespace malachite::cli {
namespace {

using testing::EveryType;

std::string Line(const Entity& e, bool with_timestamp = false) {
  std::string out;
  AppendEntityLine(out, e, with_timestamp);
  return out;
}

std::string ErrorOf(std::string_view line) {
  auto parsed = ParseEntityLine(line, false);
  if (parsed) return "ok";
  return std::string(parsed.error().AzureCode()) + " " + std::string(parsed.error().UserMessage());
}

}  // namespace

TEST_CASE("entity_line: every EDM type is written as the service renders it and read back exactly",
          "[cli]") {
  const Entity e = EveryType();
  const std::string line = Line(e);
  CHECK(
      line ==
      R"({"PartitionKey":"p'1","RowKey":"","S":"a,b\"c\nd","I32":-7,)"
      R"("I64@odata.type":"Edm.Int64","I64":"9007199254740993","D":0.1,"DI":3.0,"Neg0":-0.0,)"
      R"("NaN@odata.type":"Edm.Double","NaN":"NaN","Inf@odata.type":"Edm.Double","Inf":"-Infinity",)"
      R"("B":true,"T@odata.type":"Edm.DateTime","T":"2024-01-02T03:04:05.1234567Z",)"
      R"("G@odata.type":"Edm.Guid","G":"01234567-89ab-cdef-0123-456789abcdef",)"
      R"("Bin@odata.type":"Edm.Binary","Bin":"AAH/"})");
  auto back = ParseEntityLine(line, false);
  REQUIRE(back);
  CHECK(*back == e);  // NaN == NaN, -0.0 keeps its sign bit (EdmValue::operator==)
  CHECK(std::signbit(back->Find("Neg0")->value.number));
  CHECK(Line(*back) == line);
}

TEST_CASE("entity_line: the Timestamp is written on request and kept only when asked", "[cli]") {
  Entity e{"p", "r", *ParseIso8601("2024-01-25T05:20:00.0000001Z"), {}};
  const std::string line = Line(e, true);
  CHECK(line == R"({"PartitionKey":"p","RowKey":"r","Timestamp@odata.type":"Edm.DateTime",)"
                R"("Timestamp":"2024-01-25T05:20:00.0000001Z"})");
  CHECK(ParseEntityLine(line, false)->timestamp.ticks == 0);
  CHECK(ParseEntityLine(line, true)->timestamp == e.timestamp);
  CHECK(ParseEntityLine(R"({"PartitionKey":"p","RowKey":"r"})", true).error().code ==
        ErrorCode::kPropertiesNeedValue);
}

TEST_CASE("entity_line: a bad line gets the error Insert Entity would answer", "[cli]") {
  CHECK(ErrorOf(R"({"PartitionKey":"p","RowKey":"r"})") == "ok");
  CHECK(ErrorOf(R"({"PartitionKey":"p"})") ==
        "PropertiesNeedValue The values are not specified for all properties in the entity.");
  CHECK(ErrorOf("not json").starts_with("InvalidInput "));
  CHECK(ErrorOf(R"({"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Int32","X":"3000000000"})")
            .starts_with("OutOfRangeInput "));
  CHECK(ErrorOf(R"({"PartitionKey":"a/b","RowKey":"r"})").starts_with("OutOfRangeInput "));
  CHECK(ErrorOf(R"({"PartitionKey":"p","RowKey":"r","1x":1})").starts_with("PropertyNameInvalid "));
}

}  // namespace malachite::cli
