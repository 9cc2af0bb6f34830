#include "server/wire/json_writer.h"

#include <charconv>
#include <cstdint>
#include <cstring>

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

// True when one of the 8 bytes at `p` is below 0x20, '"' or '\\' (the bytes JSON escapes), by
// the classic SWAR tests: a byte b < n sets its high bit in (x - n*ones) & ~x.
bool NeedsEscape8(const char* p) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull;
  constexpr std::uint64_t kHighs = 0x8080808080808080ull;
  std::uint64_t x;
  std::memcpy(&x, p, sizeof x);
  const auto has_zero = [](std::uint64_t v) { return (v - kOnes) & ~v & kHighs; };
  return (((x - kOnes * 0x20) & ~x & kHighs) | has_zero(x ^ (kOnes * '"')) |
          has_zero(x ^ (kOnes * '\\'))) != 0;
}

}  // namespace

void AppendJsonEscaped(std::string& out, std::string_view text) {
  // Copy runs of bytes that need no escaping in one append; plain text is checked eight bytes at
  // a time.
  std::size_t run = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    while (text.size() - i >= 8 && !NeedsEscape8(text.data() + i)) i += 8;
    if (i == text.size()) break;
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(text.data() + run, i - run);
    run = i + 1;
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c == '\n') {
      out.append("\\n");  // the service writes "\nRequestId:" in error messages this way
    } else if (c == '\r') {
      out.append("\\r");
    } else if (c == '\t') {
      out.append("\\t");
    } else {
      out.append("\\u00");
      AppendHex(out, text.substr(i, 1));
    }
  }
  out.append(text.data() + run, text.size() - run);
}

void AppendJsonDouble(std::string& out, double value) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  const std::string_view text(buf, ec == std::errc() ? end - buf : 0);
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
