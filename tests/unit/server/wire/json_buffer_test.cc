#include "server/wire/json_buffer.h"

#include <catch2/catch.hpp>
#include <string>

#include "server/wire/json_writer.h"

namespace malachite::server {
namespace {

TEST_CASE("json_buffer: appends across growth keep every byte in order", "[json]") {
  JsonBuffer out(0);  // no capacity: the first write grows it
  std::string expected;
  for (std::size_t n = 0; n < 300; ++n) {
    const std::string piece(n % 41, static_cast<char>('a' + n % 26));
    out.append(piece);
    out.push_back(',');
    expected += piece + ',';
  }
  CHECK(out.size() == expected.size());
  CHECK(out.view() == expected);
  CHECK(out.Take() == expected);
  CHECK(out.size() == 0);
  out.append("again", 5);  // a taken buffer is empty and still usable
  CHECK(out.Take() == "again");
}

TEST_CASE("json_buffer: Room grants at least the bytes asked, Advance keeps what was written",
          "[json]") {
  JsonBuffer out(4);
  out.append("ab", 2);
  char* p = out.Room(100);  // more than the capacity left: grows, keeping the text
  for (int i = 0; i < 100; ++i) p[i] = 'x';
  out.Advance(3);  // only part of the room becomes text
  out.push_back('!');
  CHECK(out.Take() == "abxxx!");
}

TEST_CASE("json_buffer: CopyBytes copies every length exactly, touching nothing after it",
          "[json]") {
  std::string source;
  for (int i = 0; i < 40; ++i) source.push_back(static_cast<char>('A' + i));
  for (std::size_t n = 0; n <= source.size(); ++n) {
    std::string target(48, '.');
    JsonBuffer::CopyBytes(target.data(), source.data(), n);
    CHECK(target == source.substr(0, n) + std::string(48 - n, '.'));
  }
  JsonBuffer::CopyBytes(nullptr, nullptr, 0);  // an empty view's data may be null
}

// The writers write the same bytes into a JsonBuffer as into a std::string: the in-place path
// (text copied, then tested where it landed) against the std::string path, for every length
// around the sixteen-byte steps and an escaped byte at every offset.
TEST_CASE("json_buffer: JSON strings written in place match the std::string writer", "[json]") {
  for (std::size_t n = 0; n <= 70; ++n) {
    for (std::size_t at = 0; at <= n; ++at) {  // at == n: no escaped byte
      for (char c : {'"', '\\', '\n', '\x01'}) {
        std::string text(n, 'q');
        if (at < n) text[at] = c;
        std::string expected;
        AppendJsonString(expected, text);
        JsonBuffer out(8);
        AppendJsonString(out, text);
        BasicJsonMembers<JsonBuffer> m(out);
        m.Key(text);
        std::string expected_key;
        JsonMembers(expected_key).Key(text);
        CHECK(out.Take() == expected + expected_key);
        if (at == n) break;
      }
    }
  }
}

TEST_CASE("json_buffer: numbers, ETags and entity paths match the std::string writer", "[json]") {
  std::string expected;
  JsonBuffer out(0);
  for (const double v : {0.0, -0.0, 1.25, 5.0, 1e20, 1.5e-7, 123456.789}) {
    AppendJsonDouble(expected, v);
    AppendJsonDouble(out, v);
  }
  for (const std::int64_t v : {std::int64_t{0}, std::int64_t{-42}, INT64_MIN, INT64_MAX}) {
    AppendJsonInt(expected, v);
    AppendJsonInt(out, v);
  }
  AppendETagJson(expected, DateTime{637481229167935715});
  AppendETagJson(out, DateTime{637481229167935715});
  AppendEntityPath(expected, "t\"1", "p'k/", "r k");
  AppendEntityPath(out, "t\"1", "p'k/", "r k");
  JsonMembers(expected).AnnotationKey("a\"b");
  BasicJsonMembers<JsonBuffer>(out).AnnotationKey("a\"b");
  CHECK(out.Take() == expected);
}

// The members every writer call of one object makes, into either output.
template <class Out>
void WriteMembers(Out& out, const std::string& name, const std::string& value) {
  BasicJsonMembers<Out> m(out);
  m.String(name, value);
  m.Raw(name, "-12.5");
  m.LiteralString(",\"PartitionKey\":", value);
  m.String(value, name);
  m.Raw(value, "true");
}

TEST_CASE("json_buffer: members written whole match the std::string writer, escaped or not",
          "[json]") {
  // Names and values of every length around the sixteen-byte steps, plain or with one byte to
  // escape at each place, as the first member and after others, into a buffer that must grow.
  for (std::size_t n = 0; n <= 40; ++n) {
    for (std::size_t at = 0; at <= n; ++at) {  // at == n: nothing to escape
      for (char c : {'"', '\\', '\n'}) {
        std::string text(n, 'v');
        if (at < n) text[at] = c;
        const std::string plain(n % 7 + 1, 'k');
        std::string expected = "{";
        WriteMembers(expected, plain, text);
        WriteMembers(expected, text, plain);
        JsonBuffer out(2);
        out.push_back('{');
        WriteMembers(out, plain, text);
        WriteMembers(out, text, plain);
        REQUIRE(out.Take() == expected);
        if (at == n) break;
      }
    }
  }
  // Past the std::string writer's stack buffer (256 bytes a member), plain and escaped.
  for (const std::string& long_value : {std::string(300, 'w'), std::string(299, 'w') + "\""}) {
    std::string whole;
    JsonMembers(whole).String("k", long_value);
    std::string escaped;
    AppendJsonString(escaped, long_value);
    CHECK(whole == "\"k\":" + escaped);
  }
  std::string first;
  WriteMembers(first, "a", "x\"y");
  CHECK(first == R"("a":"x\"y","a":-12.5,"PartitionKey":"x\"y","x\"y":"a","x\"y":true)");
}

}  // namespace
}  // namespace malachite::server
