#include "server/http/url_coding.h"

#include <boost/url/encode.hpp>
#include <boost/url/encoding_opts.hpp>
#include <boost/url/pct_string_view.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>

namespace malachite::server {

namespace urls = boost::urls;

std::string PercentDecode(std::string_view text, bool plus_is_space) {
  auto escaped = urls::make_pct_string_view(text);
  if (!escaped) return std::string(text);
  urls::encoding_opts options;
  options.space_as_plus = plus_is_space;
  std::string out;
  out.reserve(escaped->decoded_size());
  escaped->decode(options, urls::string_token::append_to(out));
  return out;
}

std::string PercentEncode(std::string_view text) {
  return urls::encode(text, urls::unreserved_chars);
}

}  // namespace malachite::server
