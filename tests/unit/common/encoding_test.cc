#include "common/encoding.h"

#include <catch2/catch.hpp>
#include <set>

namespace malachite {
namespace {

TEST_CASE("encoding: base64 matches the RFC 4648 test vectors", "[common]") {
  const std::pair<std::string_view, std::string_view> vectors[] = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (auto [raw, text] : vectors) {
    CHECK(Base64Encode(raw) == text);
    CHECK(Base64Decode(text) == std::string(raw));
  }
  CHECK(Base64Encode(std::string("\x00\xff\xfe", 3)) == "AP/+");
  CHECK(Base64Decode("AP/+") == std::string("\x00\xff\xfe", 3));
}

TEST_CASE("encoding: base64 padding is optional and junk is rejected", "[common]") {
  CHECK(Base64Decode("Zg") == "f");
  CHECK(Base64Decode("Zm8") == "fo");
  for (std::string_view bad :
       {"Z", "Zg=", "Zm9v=", "Zg===", "Z===", "Zm 9v", "Zm9v\n", "Zm-_", "=Zm9", "Zm=v"}) {
    INFO(bad);
    CHECK_FALSE(Base64Decode(bad).has_value());
  }
}

TEST_CASE("encoding: base64url (JWT segments) uses - and _ and drops the padding", "[common]") {
  CHECK(Base64UrlEncode(std::string("\x00\xff\xfe", 3)) == "AP_-");
  CHECK(Base64UrlEncode("f") == "Zg");
  CHECK(Base64UrlDecode("AP_-") == std::string("\x00\xff\xfe", 3));
  CHECK(Base64UrlDecode("Zg==") == "f");
  // A JWT header as Entra ID writes it.
  CHECK(Base64UrlDecode("eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9") ==
        R"({"typ":"JWT","alg":"RS256"})");
  for (std::string_view bad : {"AP/+", "Z", "Zm 9v", "Zg==="}) {
    INFO(bad);
    CHECK_FALSE(Base64UrlDecode(bad).has_value());
  }
}

TEST_CASE("encoding: TrimAsciiSpace drops ASCII whitespace at both ends only", "[common]") {
  CHECK(TrimAsciiSpace(" \t a b \r\n") == "a b");
  CHECK(TrimAsciiSpace("ab") == "ab");
  CHECK(TrimAsciiSpace(" \f\v ").empty());
  CHECK(TrimAsciiSpace("").empty());
}

TEST_CASE("encoding: hex is written in the asked case and read in either", "[common]") {
  const std::string raw("\x00\x1f\xa0\xff", 4);
  std::string out = "x=";
  AppendHex(out, raw);
  CHECK(out == "x=001fa0ff");
  out.clear();
  AppendHex(out, raw, HexCase::kUpper);
  CHECK(out == "001FA0FF");
  CHECK(HexDecode("001fA0Ff") == raw);
  CHECK(HexDecode("") == std::string());
  for (std::string_view bad : {"0", "abc", "0g", "-1", "1 "}) {
    INFO(bad);
    CHECK_FALSE(HexDecode(bad).has_value());
  }
}

TEST_CASE("encoding: GUIDs parse in any case and format lowercase", "[common]") {
  auto raw = ParseGuid("0F8FAD5B-D9CB-469F-A165-70867728950E");
  REQUIRE(raw.has_value());
  CHECK((*raw)[0] == 0x0f);
  CHECK((*raw)[15] == 0x0e);
  CHECK(FormatGuid(std::string_view(reinterpret_cast<const char*>(raw->data()), 16)) ==
        "0f8fad5b-d9cb-469f-a165-70867728950e");
  for (std::string_view bad :
       {"", "0f8fad5b-d9cb-469f-a165-70867728950", "0f8fad5bd9cb469fa16570867728950e",
        "{0f8fad5b-d9cb-469f-a165-70867728950e}", "0f8fad5b-d9cb-469f-a165_70867728950e",
        "0f8fad5g-d9cb-469f-a165-70867728950e"}) {
    INFO(bad);
    CHECK_FALSE(ParseGuid(bad).has_value());
  }
}

TEST_CASE("encoding: NewGuidText makes distinct version 4 GUIDs", "[common]") {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string g = NewGuidText();
    REQUIRE(ParseGuid(g).has_value());
    CHECK(g[14] == '4');
    CHECK(std::string_view("89ab").find(g[19]) != std::string_view::npos);
    seen.insert(std::move(g));
  }
  CHECK(seen.size() == 1000);
}

TEST_CASE("encoding: UTF-8 validation rejects overlongs, surrogates and truncation", "[common]") {
  CHECK(IsValidUtf8(""));
  CHECK(IsValidUtf8("plain ascii"));
  CHECK(IsValidUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));  // café € 😀
  CHECK(IsValidUtf8("\xf4\x8f\xbf\xbf"));                           // U+10FFFF
  for (std::string_view bad : {"\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                               "\xc3", "\xe2\x82", "\x80", "\xff", "a\xf0\x9f\x98"}) {
    CHECK_FALSE(IsValidUtf8(bad));
  }
}

TEST_CASE("encoding: Utf16Length counts surrogate pairs as two units", "[common]") {
  CHECK(Utf16Length("") == 0);
  CHECK(Utf16Length("abc") == 3);
  CHECK(Utf16Length("caf\xc3\xa9") == 4);
  CHECK(Utf16Length("\xe2\x82\xac") == 1);
  CHECK(Utf16Length("\xf0\x9f\x98\x80") == 2);
  // ASCII runs are counted a word at a time: multi-byte sequences before, across and after an
  // 8-byte boundary.
  CHECK(Utf16Length("abcdefgh\xe2\x82\xacijklmnop\xf0\x9f\x98\x80q") == 20);
  CHECK(Utf16Length("abcdefg\xc3\xa9hijklmnopqrstuvw") == 24);
}

TEST_CASE("encoding: IsValidUtf8 finds a bad byte after or inside long ASCII runs", "[common]") {
  CHECK(IsValidUtf8("0123456789abcdef0123456789abcdef\xc3\xa9"));
  CHECK_FALSE(IsValidUtf8("0123456789abcdef0123456789abcdef\xc3"));
  CHECK_FALSE(
      IsValidUtf8("0123456\xff"
                  "89abcdef"));
  CHECK_FALSE(IsValidUtf8("01234567\xe2\x82"));
}

TEST_CASE("encoding: ValidUtf16Length counts valid UTF-8 and refuses the rest", "[common]") {
  CHECK(ValidUtf16Length("") == 0u);
  CHECK(ValidUtf16Length("abc") == 3u);
  CHECK(ValidUtf16Length("0123456789abcdef0123456789abcdef") == 32u);
  CHECK(ValidUtf16Length("abcdefgh\xe2\x82\xacijklmnop\xf0\x9f\x98\x80q") == 20u);
  CHECK(ValidUtf16Length("\xc3\xa9") == 1u);
  CHECK_FALSE(ValidUtf16Length("0123456789abcdef\xc3").has_value());
  CHECK_FALSE(ValidUtf16Length("\xff").has_value());
  CHECK_FALSE(ValidUtf16Length("abc\xed\xa0\x80").has_value());  // a surrogate
  CHECK_FALSE(ValidUtf16Length("ab\xc0\xaf").has_value());       // an overlong '/'
}

TEST_CASE("encoding: ASCII case helpers touch only ASCII letters", "[common]") {
  CHECK(AsciiLower("MyTable9\xc3\x89") == "mytable9\xc3\x89");
  CHECK(AsciiIEquals("Tables", "tABLES"));
  CHECK_FALSE(AsciiIEquals("Tables", "Table"));
  CHECK_FALSE(AsciiIEquals("a[", "A{"));
  // Bytes one 0x20 bit apart that are not letters: '@' '`', '[' '{', '0' '\x10', UTF-8 bytes.
  CHECK_FALSE(AsciiIEquals("@", "`"));
  CHECK_FALSE(AsciiIEquals("[", "{"));
  CHECK_FALSE(AsciiIEquals("0", "\x10"));
  CHECK_FALSE(AsciiIEquals("\xc3\x89", "\xc3\xa9"));
  CHECK(AsciiIEquals("\xc3\x89", "\xc3\x89"));
  CHECK(AsciiIEquals("", ""));
  CHECK(AsciiIEquals("Content-ID", "content-id"));
  CHECK_FALSE(AsciiIEquals("Content-ID", "content_id"));
}

}  // namespace
}  // namespace malachite
