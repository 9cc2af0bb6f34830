#include "server/http/url_coding.h"

#include <catch2/catch.hpp>

namespace malachite::server {

TEST_CASE("url_coding: percent coding follows RFC 3986 unreserved characters", "[http]") {
  CHECK(PercentEncode("a-b.c_d~e") == "a-b.c_d~e");
  CHECK(PercentEncode("") == "");
  CHECK(PercentEncode("abc~") == "abc~");
  CHECK(PercentEncode("abc!") == "abc%21");
  CHECK(PercentEncode("r'1 /?#") == "r%271%20%2F%3F%23");
  CHECK(PercentEncode("\xc3\xa9") == "%C3%A9");
  CHECK(PercentDecode("r%271%20%2f") == "r'1 /");
  CHECK(PercentDecode("") == "");
  CHECK(PercentDecode("plain'key") == "plain'key");
  CHECK(PercentDecode("a+b") == "a+b");
  CHECK(PercentDecode("a+b", true) == "a b");
  CHECK(PercentDecode("100%") == "100%");
  CHECK(PercentDecode("%zz%4") == "%zz%4");
  CHECK(PercentDecode("100%+%41%2") == "100%+A%2");
  CHECK(PercentDecode("a%20b%", true) == "a b%");
  CHECK(PercentDecode("%41%42") == "AB");
  CHECK(PercentDecode(PercentEncode("any \x01 bytes\xff")) == "any \x01 bytes\xff");
}

TEST_CASE("url_coding: a '%' must start two hex digits to be valid percent-encoding", "[http]") {
  CHECK(IsValidPercentEncoding(""));
  CHECK(IsValidPercentEncoding("plain/text'()"));
  CHECK(IsValidPercentEncoding("%41%4a%4A%25"));
  for (auto bad : {"%", "a%", "%4", "%G1", "%zz", "%%41", "%-1", "%u0041", "a%4 "}) {
    INFO(bad);
    CHECK_FALSE(IsValidPercentEncoding(bad));
  }
}

}  // namespace malachite::server
