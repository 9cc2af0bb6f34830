#include "server/shared_key.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "common/encoding.h"

namespace malachite::server {
namespace {

constexpr std::string_view kSecondarySuffix = "-secondary";

std::string_view DateValue(const Request& request) {
  // Azure: spec §10.2 — x-ms-date wins over Date.
  if (auto date = request.Find("x-ms-date")) return *date;
  return request.Find("Date").value_or(std::string_view{});
}

}  // namespace

std::string CanonicalizedResource(const Route& route) {
  std::string_view path = route.raw_path;
  std::string out;
  out.reserve(1 + route.account.size() + path.size() + 16);
  out += '/';
  out += route.account;
  if (route.secondary) {
    // Azure: spec §10.4 — the secondary suffix is removed before signing.
    std::size_t end = path.find('/', 1);
    std::string_view segment = path.substr(0, end);
    if (segment.ends_with(kSecondarySuffix)) {
      out += segment.substr(0, segment.size() - kSecondarySuffix.size());
      path = end == std::string_view::npos ? std::string_view{} : path.substr(end);
    }
  }
  out += path;
  if (const std::string* comp = route.query.Find("comp")) {
    out += "?comp=";
    out += *comp;
  }
  return out;
}

std::string SharedKeyStringToSign(const Request& request, const Route& route) {
  std::string out = request.method;
  out += '\n';
  out += request.Find("Content-MD5").value_or(std::string_view{});
  out += '\n';
  out += request.Find("Content-Type").value_or(std::string_view{});
  out += '\n';
  out += DateValue(request);
  out += '\n';
  out += CanonicalizedResource(route);
  return out;
}

std::string SharedKeyLiteStringToSign(const Request& request, const Route& route) {
  std::string out(DateValue(request));
  out += '\n';
  out += CanonicalizedResource(route);
  return out;
}

std::string ComputeSignature(std::string_view raw_key, std::string_view string_to_sign) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), raw_key.data(), static_cast<int>(raw_key.size()),
       reinterpret_cast<const unsigned char*>(string_to_sign.data()), string_to_sign.size(),
       digest, &length);
  return Base64Encode(std::string_view(reinterpret_cast<const char*>(digest), length));
}

}  // namespace malachite::server
