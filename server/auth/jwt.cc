#include "server/auth/jwt.h"

#include <simdjson.h>

#include <cmath>

#include "common/encoding.h"

namespace malachite::server {
namespace {

// A string member, or "" when absent. False when present but not a string.
bool ReadString(simdjson::dom::object object, std::string_view key, std::string& out) {
  simdjson::dom::element value;
  if (object.at_key(key).get(value)) return true;  // absent
  std::string_view text;
  if (value.get_string().get(text)) return false;
  out = std::string(text);
  return true;
}

// A NumericDate (RFC 7519 §2: seconds, possibly fractional), or nullopt when absent. False when
// present but not a number, or out of the range of int64.
bool ReadTime(simdjson::dom::object object, std::string_view key,
              std::optional<std::int64_t>& out) {
  simdjson::dom::element value;
  if (object.at_key(key).get(value)) return true;
  if (std::int64_t whole; !value.get_int64().get(whole)) {
    out = whole;
    return true;
  }
  double seconds = 0;
  if (value.get_double().get(seconds) || !std::isfinite(seconds) || std::fabs(seconds) > 9e15) {
    return false;
  }
  out = static_cast<std::int64_t>(std::floor(seconds));
  return true;
}

// "aud": a string or an array of strings (RFC 7519 §4.1.3).
bool ReadAudiences(simdjson::dom::object object, std::vector<std::string>& out) {
  simdjson::dom::element value;
  if (object.at_key("aud").get(value)) return true;
  std::string_view one;
  if (!value.get_string().get(one)) {
    out.emplace_back(one);
    return true;
  }
  simdjson::dom::array list;
  if (value.get_array().get(list)) return false;
  for (simdjson::dom::element item : list) {
    if (item.get_string().get(one)) return false;
    out.emplace_back(one);
  }
  return true;
}

// Decodes one base64url segment holding a JSON object into `object` (which lives in `parser`).
bool ParseSegment(simdjson::dom::parser& parser, std::string_view segment,
                  simdjson::dom::object& object) {
  auto json = Base64UrlDecode(segment);
  if (!json) return false;
  return !parser.parse(json->data(), json->size()).get_object().get(object);
}

}  // namespace

std::optional<Jwt> DecodeJwt(std::string_view token) {
  const std::size_t first = token.find('.');
  if (first == std::string_view::npos) return std::nullopt;
  const std::size_t second = token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  Jwt jwt;
  jwt.signing_input = std::string(token.substr(0, second));
  auto signature = Base64UrlDecode(token.substr(second + 1));
  if (!signature) return std::nullopt;
  jwt.signature = std::move(*signature);

  // One parser per segment (a dom::object points into its parser's document), kept per thread:
  // a parser allocates its buffers on first use, which would otherwise be every token.
  thread_local simdjson::dom::parser header_parser;
  thread_local simdjson::dom::parser payload_parser;
  simdjson::dom::object header;
  simdjson::dom::object payload;
  if (!ParseSegment(header_parser, token.substr(0, first), header) ||
      !ParseSegment(payload_parser, token.substr(first + 1, second - first - 1), payload)) {
    return std::nullopt;
  }
  const bool typed =
      ReadString(header, "alg", jwt.alg) && ReadString(header, "kid", jwt.kid) &&
      ReadString(payload, "iss", jwt.issuer) && ReadString(payload, "oid", jwt.object_id) &&
      ReadString(payload, "tid", jwt.tenant_id) && ReadAudiences(payload, jwt.audiences) &&
      ReadTime(payload, "nbf", jwt.not_before) && ReadTime(payload, "exp", jwt.expires);
  if (!typed) return std::nullopt;
  return jwt;
}

}  // namespace malachite::server
