// Small byte/text codecs shared by every module: base64, hex, GUID text, UTF-8 checks,
// percent-coding.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace malachite {

// Standard base64 with padding (RFC 4648 §4).
std::string Base64Encode(std::string_view raw);
// Decodes standard base64; padding optional; no whitespace allowed. nullopt when malformed.
std::optional<std::string> Base64Decode(std::string_view text);
// base64url without padding (RFC 4648 §5), as JSON Web Tokens and keys use it (RFC 7515 §2).
std::string Base64UrlEncode(std::string_view raw);
// Decodes base64url; padding optional. nullopt when malformed (including '+' or '/').
std::optional<std::string> Base64UrlDecode(std::string_view text);

// Parses `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (hex, any case) into 16 bytes in textual order.
std::optional<std::array<std::uint8_t, 16>> ParseGuid(std::string_view text);
// Formats 16 raw bytes (textual order) as lowercase `xxxxxxxx-xxxx-...`. REQUIRES: raw.size()==16.
std::string FormatGuid(std::string_view raw);
// A new random (version 4) GUID as text, e.g. for x-ms-request-id. Thread-safe.
std::string NewGuidText();

// Letter case for the hex digits a-f.
enum class HexCase { kLower, kUpper };
// Appends every byte of `raw` as two hex digits ("\x1f\xa0" -> "1fa0", or "1FA0" with kUpper).
void AppendHex(std::string& out, std::string_view raw, HexCase letters = HexCase::kLower);
// Decodes pairs of hex digits (either case) into bytes. nullopt for an odd length or a character
// that is not a hex digit.
std::optional<std::string> HexDecode(std::string_view hex);

// True when `text` is well-formed UTF-8 (no overlongs, no surrogates, <= U+10FFFF).
bool IsValidUtf8(std::string_view text);
// `text` with every byte that is not part of a well-formed UTF-8 sequence replaced by U+FFFD.
// Messages that quote hostile input go through this before they are written into JSON or XML.
std::string ToValidUtf8(std::string_view text);
// Number of UTF-16 code units `text` needs. REQUIRES: IsValidUtf8(text).
std::size_t Utf16Length(std::string_view text);
// Utf16Length(text) when IsValidUtf8(text), else nullopt: both answers from one pass over an
// ASCII text.
std::optional<std::size_t> ValidUtf16Length(std::string_view text);

// `text` without leading and trailing ASCII whitespace (space, \t, \n, \v, \f, \r). The view
// points into `text`.
std::string_view TrimAsciiSpace(std::string_view text);

// ASCII lower-casing (table names are ASCII).
std::string AsciiLower(std::string_view text);
// True when `a` and `b` are equal ignoring ASCII case. Inline for its length test: header
// lookups compare each wanted name with every header, and most differ in length.
// REQUIRES: a.size() == b.size().
bool AsciiIEqualsSameSize(std::string_view a, std::string_view b);
inline bool AsciiIEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && AsciiIEqualsSameSize(a, b);
}

// Ordinal order of two UTF-8 strings as the UTF-16 strings they encode: <0, 0 or >0. Equals
// byte order except that U+E000..U+FFFF sort after supplementary characters (whose UTF-16
// form starts with a surrogate D800..DBFF).
int CompareUtf16Order(std::string_view a, std::string_view b);

}  // namespace malachite
