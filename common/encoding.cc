#include "common/encoding.h"

#include <cstring>
#include <random>

namespace malachite {
namespace {

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kHexLower[] = "0123456789abcdef";
constexpr char kHexUpper[] = "0123456789ABCDEF";

// -1 for bytes outside the base64 alphabet.
constexpr std::array<std::int8_t, 256> MakeBase64Table() {
  std::array<std::int8_t, 256> table{};
  for (auto& v : table) v = -1;
  for (int i = 0; i < 64; ++i) table[static_cast<unsigned char>(kBase64Alphabet[i])] = i;
  return table;
}
constexpr std::array<std::int8_t, 256> kBase64Table = MakeBase64Table();

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// xoshiro256** (Blackman & Vigna): fast, good enough for request ids; not for secrets.
class Xoshiro256 {
 public:
  Xoshiro256() {
    std::random_device device;
    // splitmix64 spreads the seed over all four words.
    std::uint64_t seed = (static_cast<std::uint64_t>(device()) << 32) ^ device();
    for (auto& word : s_) {
      seed += 0x9e3779b97f4a7c15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      word = z ^ (z >> 31);
    }
  }

  std::uint64_t Next() {
    const std::uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

 private:
  static std::uint64_t Rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace

std::string Base64Encode(std::string_view raw) {
  std::string out;
  out.resize((raw.size() + 2) / 3 * 4);
  char* p = out.data();
  std::size_t i = 0;
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(raw[k]); };
  for (; i + 3 <= raw.size(); i += 3) {
    const std::uint32_t v = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
    *p++ = kBase64Alphabet[v >> 18];
    *p++ = kBase64Alphabet[(v >> 12) & 63];
    *p++ = kBase64Alphabet[(v >> 6) & 63];
    *p++ = kBase64Alphabet[v & 63];
  }
  const std::size_t rest = raw.size() - i;
  if (rest > 0) {
    const std::uint32_t v = byte(i) << 16 | (rest == 2 ? byte(i + 1) << 8 : 0);
    *p++ = kBase64Alphabet[v >> 18];
    *p++ = kBase64Alphabet[(v >> 12) & 63];
    *p++ = rest == 2 ? kBase64Alphabet[(v >> 6) & 63] : '=';
    *p++ = '=';
  }
  return out;
}

std::optional<std::string> Base64Decode(std::string_view text) {
  if (!text.empty() && text.back() == '=') {
    // Padded input must be whole quanta; at most two '='.
    if (text.size() % 4 != 0) return std::nullopt;
    text.remove_suffix(1);
    if (text.back() == '=') text.remove_suffix(1);
  }
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3 + 2);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    const int v = kBase64Table[static_cast<unsigned char>(c)];
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return out;
}

std::string_view TrimAsciiSpace(std::string_view text) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const std::size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

std::string Base64UrlEncode(std::string_view raw) {
  std::string out = Base64Encode(raw);
  while (!out.empty() && out.back() == '=') out.pop_back();
  for (char& c : out) {
    if (c == '+') c = '-';
    if (c == '/') c = '_';
  }
  return out;
}

std::optional<std::string> Base64UrlDecode(std::string_view text) {
  std::string standard(text);
  for (char& c : standard) {
    if (c == '+' || c == '/') return std::nullopt;
    if (c == '-') c = '+';
    if (c == '_') c = '/';
  }
  return Base64Decode(standard);
}

void AppendHex(std::string& out, std::string_view raw, HexCase letters) {
  const char* digits = letters == HexCase::kUpper ? kHexUpper : kHexLower;
  for (char ch : raw) {
    const auto b = static_cast<unsigned char>(ch);
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 15]);
  }
}

std::optional<std::string> HexDecode(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string raw;
  raw.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = HexValue(hex[i]), lo = HexValue(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    raw.push_back(static_cast<char>(hi << 4 | lo));
  }
  return raw;
}

std::optional<std::array<std::uint8_t, 16>> ParseGuid(std::string_view text) {
  if (text.size() != 36) return std::nullopt;
  std::array<std::uint8_t, 16> raw{};
  std::size_t out = 0;
  for (std::size_t i = 0; i < 36;) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (text[i] != '-') return std::nullopt;
      ++i;
      continue;
    }
    const int hi = HexValue(text[i]), lo = HexValue(text[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    raw[out++] = static_cast<std::uint8_t>(hi << 4 | lo);
    i += 2;
  }
  return raw;
}

std::string FormatGuid(std::string_view raw) {
  // Written into a local buffer and copied once: every response's x-ms-request-id is one.
  char text[36];
  std::size_t n = 0;
  for (std::size_t i = 0; i < 16 && i < raw.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text[n++] = '-';
    const auto b = static_cast<unsigned char>(raw[i]);
    text[n++] = kHexLower[b >> 4];
    text[n++] = kHexLower[b & 15];
  }
  return std::string(text, n);
}

std::string NewGuidText() {
  thread_local Xoshiro256 rng;
  const std::uint64_t a = rng.Next(), b = rng.Next();
  std::array<char, 16> raw;
  for (int i = 0; i < 8; ++i) {
    raw[i] = static_cast<char>(a >> (56 - 8 * i));
    raw[8 + i] = static_cast<char>(b >> (56 - 8 * i));
  }
  raw[6] = static_cast<char>((raw[6] & 0x0f) | 0x40);  // version 4
  raw[8] = static_cast<char>((raw[8] & 0x3f) | 0x80);  // RFC 4122 variant
  return FormatGuid(std::string_view(raw.data(), raw.size()));
}

namespace {

// True when the 8 bytes at `p` are all ASCII.
bool IsAscii8(const void* p) {
  std::uint64_t word;
  std::memcpy(&word, p, sizeof word);
  return (word & 0x8080808080808080ull) == 0;
}

}  // namespace

bool IsValidUtf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    if (end - p >= 8 && IsAscii8(p)) {
      p += 8;
      continue;
    }
    const unsigned char c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    std::size_t len;
    std::uint32_t cp;
    if ((c & 0xe0) == 0xc0) {
      len = 2, cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      len = 3, cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      len = 4, cp = c & 0x07;
    } else {
      return false;
    }
    if (static_cast<std::size_t>(end - p) < len) return false;
    for (std::size_t i = 1; i < len; ++i) {
      if ((p[i] & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (p[i] & 0x3f);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
    constexpr std::uint32_t kMinForLength[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMinForLength[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      return false;
    }
    p += len;
  }
  return true;
}

std::string ToValidUtf8(std::string_view text) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
  if (IsValidUtf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t len = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
    if (i + len <= text.size() && IsValidUtf8(text.substr(i, len))) {
      out.append(text.substr(i, len));
      i += len;
    } else {
      out.append(kReplacement);
      ++i;
    }
  }
  return out;
}

std::size_t Utf16Length(std::string_view text) {
  // Each code point has one lead byte; 4-byte sequences need a surrogate pair. ASCII, the common
  // case, is counted eight bytes at a time.
  std::size_t units = 0;
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    if (n - i >= 8 && IsAscii8(text.data() + i)) {
      units += 8;
      i += 8;
      continue;
    }
    const auto c = static_cast<unsigned char>(text[i++]);
    if ((c & 0xc0) != 0x80) units += c >= 0xf0 ? 2 : 1;
  }
  return units;
}

std::optional<std::size_t> ValidUtf16Length(std::string_view text) {
  // An ASCII prefix is valid and one unit a byte; only what follows it needs the full checks.
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (n - i >= 8 && IsAscii8(text.data() + i)) i += 8;
  while (i < n && static_cast<unsigned char>(text[i]) < 0x80) ++i;
  if (i == n) return n;
  const std::string_view rest = text.substr(i);
  if (!IsValidUtf8(rest)) return std::nullopt;
  return i + Utf16Length(rest);
}

std::string AsciiLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool AsciiIEqualsSameSize(std::string_view a, std::string_view b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = a[i], y = b[i];
    if (x == y) continue;
    // Different bytes are equal only as the two cases of one ASCII letter: they differ in the
    // 0x20 bit alone and are a letter with it set.
    const auto lower = static_cast<unsigned char>(x | 0x20);
    if (lower != static_cast<unsigned char>(y | 0x20) || lower < 'a' || lower > 'z') return false;
  }
  return true;
}

int CompareUtf16Order(std::string_view a, std::string_view b) {
  const std::size_t n = a.size() < b.size() ? a.size() : b.size();
  std::size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  if (i == n) return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
  const auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
  // The bytes before i are equal, so x and y are both lead bytes or both continuation bytes of
  // code points with the same lead byte. Lead bytes EE/EF start U+E000..U+FFFF (one UTF-16 unit
  // >= E000) and F0..F4 start supplementary characters (a surrogate pair, first unit D800..DBFF):
  // only between those two groups does UTF-16 order invert UTF-8 order.
  const bool x_high_bmp = x == 0xEE || x == 0xEF, y_high_bmp = y == 0xEE || y == 0xEF;
  const bool x_supp = x >= 0xF0 && x <= 0xF4, y_supp = y >= 0xF0 && y <= 0xF4;
  if ((x_high_bmp && y_supp) || (x_supp && y_high_bmp)) return x_high_bmp ? 1 : -1;
  return x < y ? -1 : (x > y ? 1 : 0);
}

}  // namespace malachite
