#include "server/net/logging.h"

#include <catch2/catch.hpp>

namespace malachite::server {

TEST_CASE("logging: JSON escaping keeps one log record on one line and valid JSON", "[logging]") {
  std::string out;
  AppendJsonEscaped("GET /t()?$filter=Name eq 'a\"b\\c'\n\tx\x01\x1f é", out);
  CHECK(out == "GET /t()?$filter=Name eq 'a\\\"b\\\\c'\\n\\tx\\u0001\\u001f é");
}

}  // namespace malachite::server
