#include "server/wire/json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/datetime.h"
#include "common/encoding.h"
#include "server/http/url_coding.h"

namespace malachite::server {

void AppendJsonString(std::string& out, std::string_view text) {
  out.push_back('"');
  AppendJsonEscaped(out, text);
  out.push_back('"');
}

namespace {

// JSON escapes '"', '\\' and the control characters below 0x20; every other byte, UTF-8
// sequences included (U+2028 too), is copied as is.
#if defined(__SSE2__)
// Bit i set when byte i of the 16 at `p` needs escaping.
unsigned EscapeMask16(const char* p) {
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i low = _mm_set1_epi8(0x1f);
  const __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(x, low), low);  // x <= 0x1f
  const __m128i quote = _mm_cmpeq_epi8(x, _mm_set1_epi8('"'));
  const __m128i backslash = _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'));
  return static_cast<unsigned>(
      _mm_movemask_epi8(_mm_or_si128(control, _mm_or_si128(quote, backslash))));
}

// The index of the first byte at or after `i` that needs escaping, or text.size(). Plain text is
// tested sixteen bytes per step; a tail shorter than that is tested in one step too, by loading
// the last sixteen bytes again (overlapping) or, for a short string, a padded copy, so no read
// goes past the string.
std::size_t NextEscape(std::string_view text, std::size_t i) {
  const char* p = text.data();
  const std::size_t n = text.size();
  for (; n - i >= 16; i += 16) {
    if (const unsigned mask = EscapeMask16(p + i); mask != 0) return i + __builtin_ctz(mask);
  }
  const std::size_t rest = n - i;
  if (rest == 0) return n;
  unsigned mask;
  if (n >= 16) {
    mask = EscapeMask16(p + n - 16) >> (16 - rest);
  } else {
    char block[16];
    std::memset(block, 'a', sizeof block);
    std::memcpy(block, p + i, rest);
    mask = EscapeMask16(block);
  }
  return mask == 0 ? n : i + __builtin_ctz(mask);
}
#else
std::size_t NextEscape(std::string_view text, std::size_t i) {
  const auto plain = [](unsigned char c) { return c >= 0x20 && c != '"' && c != '\\'; };
  while (i < text.size() && plain(static_cast<unsigned char>(text[i]))) ++i;
  return i;
}
#endif

// Appends the escape sequence of `c`. REQUIRES: `c` needs escaping.
void AppendEscape(std::string& out, unsigned char c) {
  if (c == '"' || c == '\\') {
    const char pair[2] = {'\\', static_cast<char>(c)};
    out.append(pair, 2);
  } else if (c == '\n') {
    out.append("\\n");  // the service writes "\nRequestId:" in error messages this way
  } else if (c == '\r') {
    out.append("\\r");
  } else if (c == '\t') {
    out.append("\\t");
  } else {
    out.append("\\u00");
    const char byte = static_cast<char>(c);
    AppendHex(out, std::string_view(&byte, 1));
  }
}

// std::to_chars(value) for the common doubles that are short decimals, without its general
// algorithm: writes it at `buf` (room for 32) and returns its length, or 0 when `value` is not
// one of them. Why the output is the same: for 1e-3 <= |value| < 1e5 to_chars picks fixed
// notation (never longer than the exponent form there) with the fewest digits that parse back to
// `value`. With k <= 9 fraction digits, m = round(|value| * 10^k) < 2^53 is exact, and m / 10^k
// (a correctly rounded division of exact operands) equals |value| exactly when the k-digit
// decimal parses back to it; no other k-digit decimal does, since |value|'s ulp (<= 2^-36) is
// below 10^-k. So the smallest such k gives to_chars' digits.
std::size_t PutShortDecimal(double value, char* buf) {
  static constexpr double kPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
  static constexpr std::uint64_t kIntPow10[] = {1,      10,      100,      1000,      10000,
                                                100000, 1000000, 10000000, 100000000, 1000000000};
  const double magnitude = std::fabs(value);
  if (!(magnitude >= 1e-3 && magnitude < 1e5)) return 0;
  for (int k = 0; k <= 9; ++k) {
    const double m = std::round(magnitude * kPow10[k]);
    if (m / kPow10[k] != magnitude) continue;
    const auto digits = static_cast<std::uint64_t>(m);
    char* p = buf;
    if (value < 0) *p++ = '-';
    p = std::to_chars(p, p + 8, digits / kIntPow10[k]).ptr;
    if (k > 0) {
      *p++ = '.';
      std::uint64_t fraction = digits % kIntPow10[k];
      for (int i = k - 1; i >= 0; --i, fraction /= 10) p[i] = static_cast<char>('0' + fraction % 10);
      p += k;
    }
    return static_cast<std::size_t>(p - buf);
  }
  return 0;
}

}  // namespace

void AppendJsonEscaped(std::string& out, std::string_view text) {
  // Runs of bytes that need no escaping are appended whole.
  std::size_t run = 0;
  for (std::size_t i = NextEscape(text, 0); i < text.size(); i = NextEscape(text, run)) {
    out.append(text.data() + run, i - run);
    AppendEscape(out, static_cast<unsigned char>(text[i]));
    run = i + 1;
  }
  out.append(text.data() + run, text.size() - run);
}

void AppendJsonDouble(std::string& out, double value) {
  char buf[32];
  std::size_t len = PutShortDecimal(value, buf);
  if (len == 0) {
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
    len = ec == std::errc() ? end - buf : 0;
  }
  const std::string_view text(buf, len);
  out.append(text);
  // Azure: spec §5.2 — integral doubles keep a ".0" so Python/.NET read them back as Double.
  if (text.find_first_of(".en") == std::string_view::npos) out.append(".0");
}

void AppendJsonInt(std::string& out, std::int64_t value) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, ec == std::errc() ? end : buf);
}

void AppendEntityPath(std::string& out, std::string_view table, std::string_view partition_key,
                      std::string_view row_key) {
  // Azure: spec §5.1 (rec.) — quotes doubled as in URL key literals, then RFC 3986 encoded.
  const auto append_key = [&out](std::string_view key) {
    std::string doubled;
    doubled.reserve(key.size() + 2);
    for (char c : key) {
      doubled.push_back(c);
      if (c == '\'') doubled.push_back('\'');
    }
    out.append(PercentEncode(doubled));
  };
  AppendJsonEscaped(out, table);
  out.append("(PartitionKey='");
  append_key(partition_key);
  out.append("',RowKey='");
  append_key(row_key);
  out.append("')");
}

void AppendETagJson(std::string& out, DateTime t) {
  out.append("\"W/\\\"datetime'");
  const std::size_t start = out.size();
  AppendIso8601(out, t);
  // Azure: spec §3 — ':' percent-encoded as in FormatETag; the ISO text has exactly two.
  for (std::size_t i = start; i < out.size(); ++i) {
    if (out[i] == ':') out.replace(i, 1, "%3A");
  }
  out.append("'\\\"\"");
}

void JsonMembers::Comma() {
  if (!first_) out_.push_back(',');
  first_ = false;
}

void JsonMembers::Key(std::string_view name) {
  Comma();
  AppendJsonString(out_, name);
  out_.push_back(':');
}

void JsonMembers::AnnotationKey(std::string_view name) {
  Comma();
  AppendJsonString(out_, name);
  out_.pop_back();  // reopen the string literal
  out_.append("@odata.type\":");
}

void JsonMembers::String(std::string_view name, std::string_view value) {
  Key(name);
  AppendJsonString(out_, value);
}

}  // namespace malachite::server
