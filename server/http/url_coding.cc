#include "server/http/url_coding.h"

#include <algorithm>
#include <boost/url/encode.hpp>
#include <boost/url/encoding_opts.hpp>
#include <boost/url/pct_string_view.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>

namespace malachite::server {

namespace urls = boost::urls;

namespace {

bool IsHexDigit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// `text` with every '%' that starts no escape written as %25, so it decodes to itself.
std::string EscapeStrayPercents(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool escape = i + 2 < text.size() && IsHexDigit(text[i + 1]) && IsHexDigit(text[i + 2]);
    out += text[i] == '%' && !escape ? std::string_view("%25") : text.substr(i, 1);
  }
  return out;
}

}  // namespace

std::string PercentDecode(std::string_view text, bool plus_is_space) {
  std::string out;
  PercentDecodeInto(text, out, plus_is_space);
  return out;
}

void PercentDecodeInto(std::string_view text, std::string& out, bool plus_is_space) {
  // Most names and keys hold no escape: nothing to decode, so Boost.URL is not needed.
  if (text.find('%') == std::string_view::npos &&
      (!plus_is_space || text.find('+') == std::string_view::npos)) {
    out.assign(text);
    return;
  }
  auto escaped = urls::make_pct_string_view(text);
  std::string repaired;
  if (!escaped) {
    repaired = EscapeStrayPercents(text);
    escaped = urls::make_pct_string_view(repaired);
    if (!escaped) {
      out.assign(text);
      return;
    }
  }
  urls::encoding_opts options;
  options.space_as_plus = plus_is_space;
  out.clear();
  out.reserve(escaped->decoded_size());
  escaped->decode(options, urls::string_token::append_to(out));
}

bool IsValidPercentEncoding(std::string_view text) {
  // A text without '%' holds no escape to check: most paths.
  if (text.find('%') == std::string_view::npos) return true;
  return urls::make_pct_string_view(text).has_value();
}

std::string PercentEncode(std::string_view text) {
  std::string out;
  AppendPercentEncoded(out, text);
  return out;
}

void AppendPercentEncoded(std::string& out, std::string_view text) {
  // Keys are mostly unreserved characters already: then the text is its own encoding.
  // The lambda inlines the charset's table lookup; a function pointer was a call per character.
  if (std::all_of(text.begin(), text.end(), [](char c) { return urls::unreserved_chars(c); })) {
    out.append(text);
    return;
  }
  urls::encode(text, urls::unreserved_chars, {}, urls::string_token::append_to(out));
}

}  // namespace malachite::server
