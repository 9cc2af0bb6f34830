#include "server/wire/json_writer.h"

#include <catch2/catch.hpp>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

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

TEST_CASE("json_writer: escaping finds every byte to escape at every offset of long strings",
          "[json]") {
  // Every control character, quote and backslash, alone and at each offset of strings long
  // enough to take the sixteen-byte steps and the overlapping tail; U+2028 and other non-ASCII
  // bytes pass unchanged.
  for (int c = 0; c < 0x20; ++c) {
    const std::string expected = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : "";
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\u%04x", c);
    CHECK(Str(std::string(1, static_cast<char>(c))) ==
          "\"" + (expected.empty() ? std::string(hex) : expected) + "\"");
  }
  const std::string ls = "\xe2\x80\xa8";  // U+2028 LINE SEPARATOR
  CHECK(Str(ls + "x" + ls) == "\"" + ls + "x" + ls + "\"");
  for (std::size_t size : {1u, 15u, 16u, 17u, 31u, 32u, 33u, 47u}) {
    for (std::size_t at = 0; at < size; ++at) {
      for (char c : {'"', '\\', '\x01'}) {
        std::string text(size, '\xc3');
        text[at] = c;
        const std::string escaped = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : "\\u0001";
        CHECK(Str(text) == "\"" + text.substr(0, at) + escaped + text.substr(at + 1) + "\"");
      }
    }
    std::string two(size, 'y');
    two.front() = '"';
    two.back() = '"';
    CHECK(Str(two).size() == size + 2 + (size == 1 ? 1 : 2));
  }
}

TEST_CASE("json_writer: short decimals are written exactly as std::to_chars writes them",
          "[json]") {
  const auto reference = [](double v) {
    char buf[32];
    std::string text(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
    if (text.find_first_of(".en") == std::string::npos) text += ".0";
    return text;
  };
  CHECK(Dbl(0.001) == "0.001");
  CHECK(Dbl(0.0001) == "1e-04");
  CHECK(Dbl(-12.5) == "-12.5");
  CHECK(Dbl(99999.999999999) == "99999.999999999");
  CHECK(Dbl(100000) == "1e+05");
  CHECK(Dbl(0.30000000000000004) == "0.30000000000000004");
  std::mt19937_64 random(11);
  for (int i = 0; i < 200000; ++i) {
    // Short decimals at every scale around the fast path's bounds, then arbitrary bit patterns.
    const double scale = std::pow(10.0, static_cast<int>(random() % 14) - 6);
    const double decimal =
        static_cast<double>(static_cast<std::int64_t>(random() % 2000001) - 1000000) * scale;
    double bits_value;
    const std::uint64_t bits = random();
    std::memcpy(&bits_value, &bits, sizeof bits);
    const double near_one = std::ldexp(static_cast<double>(random() >> 11), -53 + i % 20);
    for (double v : {decimal, near_one, bits_value}) {
      if (std::isfinite(v)) REQUIRE(Dbl(v) == reference(v));
    }
  }
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
