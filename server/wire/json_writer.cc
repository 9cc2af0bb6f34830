#include "server/wire/json_writer.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/datetime.h"
#include "common/encoding.h"
#include "common/entity.h"
#include "server/http/url_coding.h"

namespace malachite::server {

namespace {

// JSON escapes '"', '\\' and the control characters below 0x20; every other byte, UTF-8
// sequences included (U+2028 too), is copied as is.
#if defined(__SSE2__)
constexpr std::array<bool, 256> kEscaped = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[c] = true;
  table['"'] = table['\\'] = true;
  return table;
}();

// Bit i set when byte i of the 16 at `p` needs escaping.
[[gnu::always_inline]] inline unsigned EscapeMask16(const char* p) {
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
// the last sixteen bytes again (overlapping), so no read goes past the string; a string shorter
// than sixteen bytes is looked up byte by byte.
std::size_t NextEscape(std::string_view text, std::size_t i) {
  const char* p = text.data();
  const std::size_t n = text.size();
  for (; n - i >= 16; i += 16) {
    if (const unsigned mask = EscapeMask16(p + i); mask != 0) return i + __builtin_ctz(mask);
  }
  const std::size_t rest = n - i;
  if (rest == 0) return n;
  if (n < 16) {  // too short to load sixteen bytes: a table lookup per byte
    while (i < n && !kEscaped[static_cast<unsigned char>(p[i])]) ++i;
    return i;
  }
  const unsigned mask = EscapeMask16(p + n - 16) >> (16 - rest);
  return mask == 0 ? n : i + __builtin_ctz(mask);
}
#else
std::size_t NextEscape(std::string_view text, std::size_t i) {
  const auto plain = [](unsigned char c) { return c >= 0x20 && c != '"' && c != '\\'; };
  while (i < text.size() && plain(static_cast<unsigned char>(text[i]))) ++i;
  return i;
}
#endif

// Bytes past the end of a text that HasEscape may read.
constexpr std::size_t kEscapeScanSlack = 16;

// Whether any of the `n` bytes at `p` needs escaping. REQUIRES: kEscapeScanSlack readable bytes
// after them (their values do not matter). Inlined: it is a few instructions on short texts.
[[gnu::always_inline]] inline bool HasEscape(const char* p, std::size_t n) {
#if defined(__SSE2__)
  for (; n >= 16; p += 16, n -= 16) {
    if (EscapeMask16(p) != 0) return true;
  }
  return n != 0 && (EscapeMask16(p) & ((1u << n) - 1)) != 0;
#else
  return NextEscape(std::string_view(p, n), 0) != n;
#endif
}

// Appends the escape sequence of `c`. REQUIRES: `c` needs escaping.
template <class Out>
void AppendEscape(Out& out, unsigned char c) {
  if (c == '"' || c == '\\') {
    const char pair[2] = {'\\', static_cast<char>(c)};
    out.append(pair, 2);
  } else if (c == '\n') {
    out.append("\\n", 2);  // the service writes "\nRequestId:" in error messages this way
  } else if (c == '\r') {
    out.append("\\r", 2);
  } else if (c == '\t') {
    out.append("\\t", 2);
  } else {
    static constexpr char kHex[] = "0123456789abcdef";
    const char code[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xf]};
    out.append(code, 6);
  }
}

// Appends open, text and close with one append when `text` is short and needs no escaping (most
// keys and many values), where separate appends would each check the capacity and call memcpy.
// `open` and `close` are at most two bytes. False, with nothing appended, otherwise.
bool AppendPlainQuoted(std::string& out, std::string_view open, std::string_view text,
                       std::string_view close) {
  constexpr std::size_t kMaxText = 64;
  if (text.size() > kMaxText || NextEscape(text, 0) != text.size()) return false;
  char buf[kMaxText + 4];
  char* p = buf;
  for (char c : open) *p++ = c;
  if (!text.empty()) std::memcpy(p, text.data(), text.size());
  p += text.size();
  for (char c : close) *p++ = c;
  out.append(buf, static_cast<std::size_t>(p - buf));
  return true;
}

// The same written in place, at any length: the text is copied first and then tested where it
// landed, where sixteen-byte loads may run past its end into the buffer's slack.
bool AppendPlainQuoted(JsonBuffer& out, std::string_view open, std::string_view text,
                       std::string_view close) {
  const std::size_t n = open.size() + text.size() + close.size();
  char* p = out.Room(n + kEscapeScanSlack);
  for (char c : open) *p++ = c;
  JsonBuffer::CopyBytes(p, text.data(), text.size());
  if (HasEscape(p, text.size())) return false;
  p += text.size();
  for (char c : close) *p++ = c;
  out.Advance(n);
  return true;
}

// One member, `open` + name + `mid` + value + `close`, written at `p` when neither `name` nor
// (when `escape_value`) `value` needs escaping: the pieces are copied and then tested where they
// landed, as above; `mid` and `close` are literals, so their copies are fixed stores. Returns the
// length written, or 0 when something needs escaping (what was written then is garbage). `open`,
// `mid` and `close` need no escaping. REQUIRES: room for the member and kEscapeScanSlack more.
template <std::size_t MidSize, std::size_t CloseSize>
[[gnu::always_inline]] inline std::size_t PutPlainMember(
    char* p, std::string_view open, std::string_view name, const char (&mid)[MidSize],
    std::string_view value, const char (&close)[CloseSize], bool escape_value) {
  char* const start = p;
  JsonBuffer::CopyBytes(p, open.data(), open.size());
  p += open.size();
  JsonBuffer::CopyBytes(p, name.data(), name.size());
  if (HasEscape(p, name.size())) return 0;
  p += name.size();
  std::memcpy(p, mid, MidSize - 1);
  p += MidSize - 1;
  JsonBuffer::CopyBytes(p, value.data(), value.size());
  if (escape_value && HasEscape(p, value.size())) return 0;
  p += value.size();
  std::memcpy(p, close, CloseSize - 1);
  return static_cast<std::size_t>(p + (CloseSize - 1) - start);
}

// The member written with one bounds check (PutPlainMember); false, with nothing appended, when
// something needs escaping.
template <std::size_t MidSize, std::size_t CloseSize>
bool AppendPlainMember(JsonBuffer& out, std::string_view open, std::string_view name,
                       const char (&mid)[MidSize], std::string_view value,
                       const char (&close)[CloseSize], bool escape_value) {
  const std::size_t n = open.size() + name.size() + (MidSize - 1) + value.size() + (CloseSize - 1);
  const std::size_t written =
      PutPlainMember(out.Room(n + kEscapeScanSlack), open, name, mid, value, close, escape_value);
  out.Advance(written);
  return written != 0;
}

// The same into a std::string (a single entity, small documents): assembled on the stack when
// short, then appended once. False, with nothing appended, when longer or something needs
// escaping.
template <std::size_t MidSize, std::size_t CloseSize>
bool AppendPlainMember(std::string& out, std::string_view open, std::string_view name,
                       const char (&mid)[MidSize], std::string_view value,
                       const char (&close)[CloseSize], bool escape_value) {
  constexpr std::size_t kMaxMember = 256;
  const std::size_t n = open.size() + name.size() + (MidSize - 1) + value.size() + (CloseSize - 1);
  if (n > kMaxMember) return false;
  char buf[kMaxMember + kEscapeScanSlack];
  const std::size_t written = PutPlainMember(buf, open, name, mid, value, close, escape_value);
  out.append(buf, written);
  return written != 0;
}

}  // namespace

template <class Out>
void AppendJsonString(Out& out, std::string_view text) {
  if (AppendPlainQuoted(out, "\"", text, "\"")) return;
  out.push_back('"');
  AppendJsonEscaped(out, text);
  out.push_back('"');
}

template <class Out>
void AppendJsonEscaped(Out& out, std::string_view text) {
  // Runs of bytes that need no escaping are appended whole.
  std::size_t run = 0;
  for (std::size_t i = NextEscape(text, 0); i < text.size(); i = NextEscape(text, run)) {
    out.append(text.data() + run, i - run);
    AppendEscape(out, static_cast<unsigned char>(text[i]));
    run = i + 1;
  }
  out.append(text.data() + run, text.size() - run);
}

template <class Out>
void AppendJsonDouble(Out& out, double value) {
  char buf[kJsonNumberMaxChars];
  out.append(buf, FormatJsonDouble(value, buf));
}

template <class Out>
void AppendJsonInt(Out& out, std::int64_t value) {
  char buf[kJsonNumberMaxChars];
  out.append(buf, FormatJsonInt(value, buf));
}

template <class Out>
void AppendEntityPath(Out& out, std::string_view table, std::string_view partition_key,
                      std::string_view row_key) {
  // Azure: spec §5.1 (rec.) — quotes doubled as in URL key literals, then RFC 3986 encoded.
  const auto append_key = [&out](std::string_view key) {
    std::string doubled;
    doubled.reserve(key.size() + 2);
    for (char c : key) {
      doubled.push_back(c);
      if (c == '\'') doubled.push_back('\'');
    }
    const std::string encoded = PercentEncode(doubled);
    out.append(encoded.data(), encoded.size());
  };
  AppendJsonEscaped(out, table);
  out.append("(PartitionKey='", 15);
  append_key(partition_key);
  out.append("',RowKey='", 10);
  append_key(row_key);
  out.append("')", 2);
}

template <class Out>
void AppendETagJson(Out& out, DateTime t) {
  char iso[kIso8601MaxChars];
  AppendETagJson(out, std::string_view(iso, PutIso8601(iso, t)));
}

template <class Out>
void AppendETagJson(Out& out, std::string_view iso8601) {
  // The literal parts have fixed sizes, so the text is assembled in a buffer and appended once.
  constexpr std::string_view kOpen = "\"W/\\\"datetime'";
  constexpr std::string_view kClose = "'\\\"\"";
  char buf[kOpen.size() + kIso8601MaxChars + 4 + kClose.size()];
  char* p = std::copy(kOpen.begin(), kOpen.end(), buf);
  p += PutETagDateTime(p, iso8601);
  p = std::copy(kClose.begin(), kClose.end(), p);
  out.append(buf, static_cast<std::size_t>(p - buf));
}

template <class Out>
void BasicJsonMembers<Out>::Comma() {
  if (!first_) out_.push_back(',');
  first_ = false;
}

template <class Out>
void BasicJsonMembers<Out>::Key(std::string_view name) {
  const std::string_view open = Open();
  first_ = false;
  if (AppendPlainQuoted(out_, open, name, "\":")) return;
  out_.append(open.data(), open.size());
  AppendJsonEscaped(out_, name);
  out_.append("\":", 2);
}

template <class Out>
void BasicJsonMembers<Out>::AnnotationKey(std::string_view name) {
  Comma();
  out_.push_back('"');
  AppendJsonEscaped(out_, name);
  out_.append("@odata.type\":", 13);
}

template <class Out>
void BasicJsonMembers<Out>::LiteralKey(std::string_view literal) {
  const std::string_view text = first_ ? literal.substr(1) : literal;
  out_.append(text.data(), text.size());
  first_ = false;
}

template <class Out>
void BasicJsonMembers<Out>::String(std::string_view name, std::string_view value) {
  if (AppendPlainMember(out_, Open(), name, "\":\"", value, "\"", true)) {
    first_ = false;
    return;
  }
  Key(name);
  AppendJsonString(out_, value);
}

template <class Out>
void BasicJsonMembers<Out>::Raw(std::string_view name, std::string_view json) {
  if (AppendPlainMember(out_, Open(), name, "\":", json, "", false)) {
    first_ = false;
    return;
  }
  Key(name);
  out_.append(json.data(), json.size());
}

template <class Out>
void BasicJsonMembers<Out>::LiteralString(std::string_view literal, std::string_view value) {
  const std::string_view text = first_ ? literal.substr(1) : literal;
  if (AppendPlainMember(out_, text, {}, "\"", value, "\"", true)) {
    first_ = false;
    return;
  }
  LiteralKey(literal);
  AppendJsonString(out_, value);
}

// The two outputs every writer is built for (json_writer.h).
template void AppendJsonString(std::string&, std::string_view);
template void AppendJsonEscaped(std::string&, std::string_view);
template void AppendJsonDouble(std::string&, double);
template void AppendJsonInt(std::string&, std::int64_t);
template void AppendEntityPath(std::string&, std::string_view, std::string_view, std::string_view);
template void AppendETagJson(std::string&, DateTime);
template void AppendETagJson(std::string&, std::string_view);
template class BasicJsonMembers<std::string>;
template void AppendJsonString(JsonBuffer&, std::string_view);
template void AppendJsonEscaped(JsonBuffer&, std::string_view);
template void AppendJsonDouble(JsonBuffer&, double);
template void AppendJsonInt(JsonBuffer&, std::int64_t);
template void AppendEntityPath(JsonBuffer&, std::string_view, std::string_view, std::string_view);
template void AppendETagJson(JsonBuffer&, DateTime);
template void AppendETagJson(JsonBuffer&, std::string_view);
template class BasicJsonMembers<JsonBuffer>;

}  // namespace malachite::server
