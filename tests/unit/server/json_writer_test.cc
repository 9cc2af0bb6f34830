#include "server/wire/json_writer.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace malachite::server {
namespace {

std::string Str(std::string_view text) {
  std::string out;
  AppendJsonString(out, text);
  return out;
}

std::string Dbl(double v) {
  std::string out;
  AppendJsonDouble(out, v);
  return out;
}

TEST_CASE("json_writer: strings escape quotes, backslashes and control characters", "[json]") {
  CHECK(Str("") == R"("")");
  CHECK(Str("plain") == R"("plain")");
  CHECK(Str("a\"b\\c") == R"("a\"b\\c")");
  CHECK(Str(std::string_view("\x00\x01\n\t\x1f", 5)) == R"("\u0000\u0001\n\t\u001f")");
  CHECK(Str("caf\xc3\xa9 \xf0\x9f\x98\x80 \x7f") == "\"caf\xc3\xa9 \xf0\x9f\x98\x80 \x7f\"");
  CHECK(Str("/<>") == R"("/<>")");
  // Long runs are checked a word at a time: every escaped byte at every offset of a word, and
  // non-ASCII bytes (>= 0x80) that must pass unchanged.
  for (std::size_t at = 0; at < 20; ++at) {
    for (char c : {'"', '\\', '\n', '\x1f', '\x00'}) {
      std::string text(20, 'x');
      text[at] = c;
      std::string expected = std::string(at, 'x');
      expected += c == '"'      ? "\\\""
                  : c == '\\'   ? "\\\\"
                  : c == '\n'   ? "\\n"
                  : c == '\x1f' ? "\\u001f"
                                : "\\u0000";
      expected += std::string(19 - at, 'x');
      CHECK(Str(text) == "\"" + expected + "\"");
    }
  }
  CHECK(Str("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xff\x80\x9f\xa0!#[]~") ==
        "\"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xff\x80\x9f\xa0!#[]~\"");
}

TEST_CASE("json_writer: doubles are shortest round-trip with .0 for integral values", "[json]") {
  CHECK(Dbl(5) == "5.0");
  CHECK(Dbl(-3) == "-3.0");
  CHECK(Dbl(0) == "0.0");
  CHECK(Dbl(-0.0) == "-0.0");
  CHECK(Dbl(1.25) == "1.25");
  CHECK(Dbl(0.1) == "0.1");
  CHECK(Dbl(1e20) == "1e+20");
  CHECK(Dbl(1.5e-7) == "1.5e-07");
  CHECK(Dbl(123456789012.0) == "123456789012.0");
  CHECK(Dbl(1.7976931348623157e308) == "1.7976931348623157e+308");
}

TEST_CASE("json_writer: JsonMembers places commas and annotation keys", "[json]") {
  std::string out = "{";
  JsonMembers m(out);
  m.String("a", "x");
  m.AnnotationKey("B\"q");
  AppendJsonString(out, "Edm.Int64");
  m.Key("n");
  AppendJsonInt(out, -42);
  out.push_back('}');
  CHECK(out == R"({"a":"x","B\"q@odata.type":"Edm.Int64","n":-42})");
}

}  // namespace
}  // namespace malachite::server
