#include "bench/shared_key_lite.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <ctime>
#include <stdexcept>

#include "common/encoding.h"

namespace malachite::bench {

SharedKeyLiteSigner::SharedKeyLiteSigner(std::string account, std::string_view key_base64)
    : account_(std::move(account)) {
  auto key = Base64Decode(key_base64);
  if (!key) throw std::invalid_argument("account key is not base64");
  key_ = std::move(*key);
}

std::string SharedKeyLiteSigner::Authorization(std::string_view date, std::string_view path) const {
  std::string to_sign;
  to_sign.reserve(date.size() + account_.size() + path.size() + 2);
  to_sign.append(date).append("\n/").append(account_).append(path);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int mac_size = 0;
  if (HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()),
           reinterpret_cast<const unsigned char*>(to_sign.data()), to_sign.size(), mac,
           &mac_size) == nullptr) {
    throw std::runtime_error("HMAC-SHA256 failed");
  }
  std::string signature =
      Base64Encode(std::string_view(reinterpret_cast<const char*>(mac), mac_size));
  return "SharedKeyLite " + account_ + ":" + signature;
}

const std::string& Rfc1123Now() {
  thread_local std::time_t cached_second = 0;
  thread_local std::string cached;
  std::time_t now = std::time(nullptr);
  if (now != cached_second) {
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buffer[64];
    std::size_t size = std::strftime(buffer, sizeof buffer, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    cached.assign(buffer, size);
    cached_second = now;
  }
  return cached;
}

}  // namespace malachite::bench
