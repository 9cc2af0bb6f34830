// $select parsed into the properties a response carries.
#include "server/wire/select.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>

namespace malachite::server {
namespace {

TEST_CASE("entity_json: ParseSelect trims, deduplicates and rejects empty names", "[json]") {
  const auto show = [](std::string_view text) -> std::string {
    Result<Selection> s = ParseSelect(text);
    if (!s) return std::string(s.error().AzureCode());
    if (s->all) return "*";
    std::string out;
    for (const std::string& n : s->names) out += "[" + n + "]";
    return out;
  };
  CHECK(show("A,B , C") == "[A][B][C]");
  CHECK(show(" A ") == "[A]");
  CHECK(show("A,A,B") == "[A][B]");
  CHECK(show("*") == "*");
  CHECK(show("") == "*");
  CHECK(show("A,,B") == "InvalidInput");
  CHECK(show("A,") == "InvalidInput");
  CHECK(show(",A") == "InvalidInput");
  // Names are echoed as JSON members (null when missing): invalid UTF-8 would break the body.
  CHECK(show("A,\xff") == "InvalidInput");
  CHECK(show("\xc3\xa9t\xc3\xa9") == "[\xc3\xa9t\xc3\xa9]");
  std::string many;
  for (int i = 0; i < 256; ++i) many += (i ? ",p" : "p") + std::to_string(i);
  CHECK(show(many) == "InvalidInput");
}

}  // namespace
}  // namespace malachite::server
