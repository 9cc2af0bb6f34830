#include "common/entity.h"

#include <catch2/catch.hpp>

#include "common/datetime.h"

namespace malachite {
namespace {

TEST_CASE("entity: FormatETag percent-encodes colons and trims the fraction", "[common]") {
  CHECK(FormatETag(*ParseIso8601("2021-02-05T17:15:16.7935715Z")) ==
        "W/\"datetime'2021-02-05T17%3A15%3A16.7935715Z'\"");
  CHECK(FormatETag(*ParseIso8601("2021-02-05T17:15:16.1518050Z")) ==
        "W/\"datetime'2021-02-05T17%3A15%3A16.151805Z'\"");
  CHECK(FormatETag(*ParseIso8601("2021-02-05T17:15:16Z")) ==
        "W/\"datetime'2021-02-05T17%3A15%3A16Z'\"");
  std::string out = "ETag: ";
  AppendETag(out, *ParseIso8601("0001-01-01T00:00:00.0000001Z"));
  CHECK(out == "ETag: W/\"datetime'0001-01-01T00%3A00%3A00.0000001Z'\"");
}

TEST_CASE("entity: Find looks up custom properties case-sensitively", "[common]") {
  Entity e;
  e.properties.push_back({"Name", EdmValue::String("x")});
  REQUIRE(e.Find("Name") != nullptr);
  CHECK(e.Find("Name")->value == EdmValue::String("x"));
  CHECK(e.Find("name") == nullptr);
}

}  // namespace
}  // namespace malachite
