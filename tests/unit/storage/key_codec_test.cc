#include "storage/key_codec.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace malachite::storage {
namespace {

// The service's order: PartitionKey then RowKey, ordinal by UTF-16 code unit.
std::u16string ToUtf16(std::string_view utf8) {
  std::u16string out;
  for (std::size_t i = 0; i < utf8.size();) {
    auto c = static_cast<unsigned char>(utf8[i]);
    char32_t cp;
    int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    i += n;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (cp >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (cp & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
  }
  return out;
}

bool ServiceLess(const std::pair<std::string, std::string>& a,
                 const std::pair<std::string, std::string>& b) {
  return std::pair(ToUtf16(a.first), ToUtf16(a.second)) <
         std::pair(ToUtf16(b.first), ToUtf16(b.second));
}

TEST_CASE("key_codec: encoded keys sort like the service (PK, then RK, by UTF-16 unit)",
          "[storage]") {
  std::vector<std::pair<std::string, std::string>> keys = {
      {"", ""},           {"", "a"},
      {"a", ""},          {"a", "b"},
      {"ab", ""},         {"a\x7f", "x"},
      {"b", ""},          {"\uff01", "x"},
      {"\U0001F600", ""}, {"\ue000", ""},
      {"\ud7ff", ""},     {"\u00e9", ""},
      {"a", "\uff01"},    {"a", "\U0001F600"},
      {"a", "\uffff"},    {"zz", "\U00010000"},
      {"A", "a"},         {"a", "a\U0001F600"},
      {"a", "a\uff01"},   {"\uefff", "1"},
  };
  std::vector<std::pair<std::string, std::string>> by_service = keys;
  std::sort(by_service.begin(), by_service.end(), ServiceLess);
  std::vector<std::pair<std::string, std::string>> by_bytes = keys;
  std::sort(by_bytes.begin(), by_bytes.end(), [](const auto& a, const auto& b) {
    return EncodeEntityKey(7, a.first, a.second) < EncodeEntityKey(7, b.first, b.second);
  });
  CHECK(by_bytes == by_service);
}

TEST_CASE("key_codec: U+FF01 sorts after U+1F600 as in UTF-16, though UTF-8 says otherwise",
          "[storage]") {
  CHECK(std::string("\uff01") < std::string("\U0001F600"));  // plain UTF-8: code point order
  CHECK(EncodeEntityKey(1, "\U0001F600", "") < EncodeEntityKey(1, "\uff01", ""));
  CHECK(EncodeEntityKey(1, "p", "\U0001F600") < EncodeEntityKey(1, "p", "\uff01"));
}

TEST_CASE("key_codec: a partition sorts before a longer partition it prefixes", "[storage]") {
  CHECK(EncodeEntityKey(1, "a", "zzz") < EncodeEntityKey(1, "ab", ""));
  CHECK(EncodeEntityKey(1, "", "zzz") < EncodeEntityKey(1, "\x01", ""));
  CHECK(EncodeEntityKey(1, "zzz", "zzz") < EncodeEntityKey(2, "", ""));
}

TEST_CASE("key_codec: keys decode back, mapped lead bytes included", "[storage]") {
  std::string key = EncodeEntityKey(42, "\uff01x\ue000", "r\U0001F600\uffff");
  std::uint64_t id = 0;
  std::string pk, rk;
  REQUIRE(DecodeEntityKey(key, &id, &pk, &rk));
  CHECK(id == 42);
  CHECK(pk == "\uff01x\ue000");
  CHECK(rk == "r\U0001F600\uffff");
  CHECK(DumpEntityKey(EncodeEntityKey(7, "a", "b")) == R"(table=7 pk="a" rk="b")");
  CHECK(DumpEntityKey(EncodeEntityKey(7, "", "")) == R"(table=7 pk="" rk="")");
  CHECK(DumpEntityKey(EncodeEntityKey(7, "q\"\\", "\t")) == R"(table=7 pk="q\"\\" rk="\x09")");
  CHECK(DumpEntityKey("short").starts_with("<malformed"));
}

TEST_CASE("key_codec: ASCII keys are read in place, others are left to AppendDecodedKeys",
          "[storage]") {
  // A table id with high bits: only the keys' bytes decide.
  const std::string key = EncodeEntityKey(0x8081828384858687ULL, "pk-0001", "a longer row key");
  std::string_view pk = "unset", rk = "unset";
  REQUIRE(KeysInPlace(key, &pk, &rk));
  CHECK(pk == "pk-0001");
  CHECK(rk == "a longer row key");
  CHECK(pk.data() == key.data() + 8);  // a view into the key, not a copy
  REQUIRE(KeysInPlace(EncodeEntityKey(1, "", ""), &pk, &rk));
  CHECK(pk.empty());
  CHECK(rk.empty());
  // Non-ASCII keys (remapped U+E000, or é, which is not remapped), short or long, and malformed
  // keys are not read in place, and leave the views as they were.
  pk = rk = "unset";
  for (const std::string& other :
       {EncodeEntityKey(1, "\ue000", "r"), EncodeEntityKey(1, "p", "\u00e9"),
        EncodeEntityKey(1, "partition", "row key \u00e9 after eight bytes"),
        std::string(8, '\0') + "no terminator", std::string("short")}) {
    CHECK_FALSE(KeysInPlace(other, &pk, &rk));
  }
  CHECK(pk == "unset");
  CHECK(rk == "unset");
}

KeyBound Bound(std::string pk, std::optional<std::string> rk, bool inclusive) {
  return KeyBound{std::move(pk), std::move(rk), inclusive};
}

TEST_CASE("key_codec: key ranges encode to half-open ranges of encoded keys", "[storage]") {
  auto dump = [](const KeyRange& r) { return DumpEncodedRange(EncodeKeyRange(7, r)); };
  CHECK(dump({}) == R"([table=7 "", table=8 ""))");
  CHECK(dump({Bound("p", std::nullopt, true), Bound("p", std::nullopt, true)}) ==
        R"([table=7 "p\x00", table=7 "p\x01"))");
  CHECK(dump({Bound("p", std::nullopt, false), Bound("q", std::nullopt, false)}) ==
        R"([table=7 "p\x01", table=7 "q\x00"))");
  CHECK(dump({Bound("p", "a", true), Bound("p", "c", true)}) ==
        R"([table=7 "p\x00a", table=7 "p\x00c\x00"))");
  CHECK(dump({Bound("p", "a", false), Bound("p", "c", false)}) ==
        R"([table=7 "p\x00a\x00", table=7 "p\x00c"))");
  CHECK(dump({std::nullopt, Bound("p", "c", false)}) == R"([table=7 "", table=7 "p\x00c"))");
}

TEST_CASE("key_codec: range ends include and exclude exactly the right keys", "[storage]") {
  auto in = [](const KeyRange& r, std::string_view pk, std::string_view rk) {
    EncodedRange e = EncodeKeyRange(7, r);
    std::string k = EncodeEntityKey(7, pk, rk);
    return e.start <= k && k < e.stop;
  };
  KeyRange partition{Bound("p", std::nullopt, true), Bound("p", std::nullopt, true)};
  CHECK(in(partition, "p", ""));
  CHECK(in(partition, "p", "\U0001F600zz"));
  CHECK_FALSE(in(partition, "p\x01", ""));
  CHECK_FALSE(in(partition, "pa", ""));
  CHECK_FALSE(in(partition, "o", "zz"));
  KeyRange after_p{Bound("p", std::nullopt, false), std::nullopt};
  CHECK_FALSE(in(after_p, "p", "\uffff"));
  CHECK(in(after_p, "p\x01", ""));
  CHECK(in(after_p, "pa", ""));
  KeyRange rows{Bound("p", "b", false), Bound("p", "d", true)};
  CHECK_FALSE(in(rows, "p", "b"));
  CHECK(in(rows, "p", "b\x01"));
  CHECK(in(rows, "p", "d"));
  CHECK_FALSE(in(rows, "p", "d\x01"));
  CHECK_FALSE(in(rows, "p", "da"));
  KeyRange all{};
  CHECK(in(all, "", ""));
  CHECK_FALSE(EncodeKeyRange(7, all).stop <= EncodeEntityKey(7, "\uffff\uffff", "\uffff"));
}

}  // namespace
}  // namespace malachite::storage
