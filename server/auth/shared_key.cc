#include "server/auth/shared_key.h"

#include <openssl/evp.h>

#include <algorithm>

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

// RFC 2104: HMAC(K, m) = H((K' ^ opad) || H((K' ^ ipad) || m)), K' = K padded to the block
// (hashed first when longer than a block).
struct HmacSha256Key::Contexts {
  EVP_MD_CTX* inner = EVP_MD_CTX_new();
  EVP_MD_CTX* outer = EVP_MD_CTX_new();
  ~Contexts() {
    EVP_MD_CTX_free(inner);
    EVP_MD_CTX_free(outer);
  }
};

HmacSha256Key::HmacSha256Key(std::string_view raw_key) {
  constexpr std::size_t kBlock = 64;
  unsigned char block[kBlock] = {};
  if (raw_key.size() > kBlock) {
    unsigned int length = 0;
    EVP_Digest(raw_key.data(), raw_key.size(), block, &length, EVP_sha256(), nullptr);
  } else {
    std::copy(raw_key.begin(), raw_key.end(), block);
  }
  unsigned char ipad[kBlock];
  unsigned char opad[kBlock];
  for (std::size_t i = 0; i < kBlock; ++i) {
    ipad[i] = block[i] ^ 0x36;
    opad[i] = block[i] ^ 0x5c;
  }
  auto contexts = std::make_shared<Contexts>();
  EVP_DigestInit_ex(contexts->inner, EVP_sha256(), nullptr);
  EVP_DigestUpdate(contexts->inner, ipad, kBlock);
  EVP_DigestInit_ex(contexts->outer, EVP_sha256(), nullptr);
  EVP_DigestUpdate(contexts->outer, opad, kBlock);
  contexts_ = std::move(contexts);
}

std::string HmacSha256Key::Sign(std::string_view text) const {
  // One scratch context per thread; the precomputed contexts are only read (copied from).
  struct Scratch {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ~Scratch() { EVP_MD_CTX_free(ctx); }
  };
  thread_local Scratch scratch;
  unsigned char inner_digest[EVP_MAX_MD_SIZE];
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int inner_length = 0;
  unsigned int length = 0;
  EVP_MD_CTX_copy_ex(scratch.ctx, contexts_->inner);
  EVP_DigestUpdate(scratch.ctx, text.data(), text.size());
  EVP_DigestFinal_ex(scratch.ctx, inner_digest, &inner_length);
  EVP_MD_CTX_copy_ex(scratch.ctx, contexts_->outer);
  EVP_DigestUpdate(scratch.ctx, inner_digest, inner_length);
  EVP_DigestFinal_ex(scratch.ctx, digest, &length);
  return Base64Encode(std::string_view(reinterpret_cast<const char*>(digest), length));
}

std::string ComputeSignature(std::string_view raw_key, std::string_view string_to_sign) {
  return HmacSha256Key(raw_key).Sign(string_to_sign);
}

}  // namespace malachite::server
