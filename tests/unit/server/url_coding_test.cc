#include "server/http/url_coding.h"

#include <catch2/catch.hpp>

namespace malachite::server {

TEST_CASE("url_coding: percent coding follows RFC 3986 unreserved characters", "[http]") {
  CHECK(PercentEncode("a-b.c_d~e") == "a-b.c_d~e");
  CHECK(PercentEncode("r'1 /?#") == "r%271%20%2F%3F%23");
  CHECK(PercentEncode("\xc3\xa9") == "%C3%A9");
  CHECK(PercentDecode("r%271%20%2f") == "r'1 /");
  CHECK(PercentDecode("a+b") == "a+b");
  CHECK(PercentDecode("a+b", true) == "a b");
  CHECK(PercentDecode("100%") == "100%");
  CHECK(PercentDecode("%zz%4") == "%zz%4");
  CHECK(PercentDecode("%41%42") == "AB");
  CHECK(PercentDecode(PercentEncode("any \x01 bytes\xff")) == "any \x01 bytes\xff");
}

}  // namespace malachite::server
