// Test tokens for the bearer tests: JWTs with any header and claims, signed (RS256 with a fresh
// 2048-bit RSA key, ES256 with a fresh P-256 key, both made by OpenSSL once per process) or not,
// and the JWKS that publishes the keys. Independent of server/auth: signing, not verifying.
#pragma once

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/encoding.h"

namespace malachite::server::testing {

// "<base64url header>.<base64url claims>.<base64url signature>" of JSON texts as given.
inline std::string CompactToken(std::string_view header, std::string_view claims,
                                std::string_view signature = "sig") {
  return Base64UrlEncode(header) + "." + Base64UrlEncode(claims) + "." + Base64UrlEncode(signature);
}

// A token whose signature nobody checks (Malachite without --oauth-issuer-keys).
inline std::string UnsignedToken(std::string_view claims) {
  return CompactToken(R"({"typ":"JWT","alg":"RS256","kid":"unverified"})", claims);
}

class TestSigner {
 public:
  // One RSA and one P-256 key per process (key generation is slow).
  static const TestSigner& Rsa() {
    static const TestSigner signer(EVP_RSA_gen(2048), false);
    return signer;
  }
  static const TestSigner& Ec() {
    static const TestSigner signer(EVP_EC_gen("P-256"), true);
    return signer;
  }

  // The key as a JWK object with `kid`.
  std::string Jwk(std::string_view kid) const {
    if (ec_) {
      unsigned char point[65];
      std::size_t length = 0;
      EVP_PKEY_get_octet_string_param(key_.get(), OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point,
                                      &length);
      const std::string_view raw(reinterpret_cast<const char*>(point), length);
      return R"({"kty":"EC","crv":"P-256","use":"sig","kid":")" + std::string(kid) + R"(","x":")" +
             Base64UrlEncode(raw.substr(1, 32)) + R"(","y":")" +
             Base64UrlEncode(raw.substr(33, 32)) + R"("})";
    }
    return R"({"kty":"RSA","use":"sig","kid":")" + std::string(kid) + R"(","n":")" +
           Base64UrlEncode(Bignum(OSSL_PKEY_PARAM_RSA_N)) + R"(","e":")" +
           Base64UrlEncode(Bignum(OSSL_PKEY_PARAM_RSA_E)) + R"("})";
  }

  // A token signed with this key: header {"typ":"JWT","alg":<RS256|ES256>,"kid":<kid>}.
  std::string Sign(std::string_view kid, std::string_view claims) const {
    const std::string header = R"({"typ":"JWT","alg":")" + std::string(ec_ ? "ES256" : "RS256") +
                               R"(","kid":")" + std::string(kid) + R"("})";
    const std::string input = Base64UrlEncode(header) + "." + Base64UrlEncode(claims);
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> md(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    std::size_t length = 0;
    EVP_DigestSignInit(md.get(), nullptr, EVP_sha256(), nullptr, key_.get());
    EVP_DigestSign(md.get(), nullptr, &length, reinterpret_cast<const unsigned char*>(input.data()),
                   input.size());
    std::string signature(length, '\0');
    EVP_DigestSign(md.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                   reinterpret_cast<const unsigned char*>(input.data()), input.size());
    signature.resize(length);
    return input + "." + Base64UrlEncode(ec_ ? RawEcdsa(signature) : signature);
  }

 private:
  TestSigner(EVP_PKEY* key, bool ec) : key_(key, EVP_PKEY_free), ec_(ec) {
    if (key == nullptr) throw std::runtime_error("OpenSSL could not generate a test key");
  }

  std::string Bignum(const char* name) const {
    BIGNUM* bn = nullptr;
    EVP_PKEY_get_bn_param(key_.get(), name, &bn);
    std::string out(static_cast<std::size_t>(BN_num_bytes(bn)), '\0');
    BN_bn2bin(bn, reinterpret_cast<unsigned char*>(out.data()));
    BN_free(bn);
    return out;
  }

  // DER ECDSA-Sig-Value -> R || S, 32 bytes each (RFC 7518 §3.4).
  static std::string RawEcdsa(const std::string& der) {
    const auto* p = reinterpret_cast<const unsigned char*>(der.data());
    ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size()));
    std::string out(64, '\0');
    auto* bytes = reinterpret_cast<unsigned char*>(out.data());
    BN_bn2binpad(ECDSA_SIG_get0_r(sig), bytes, 32);
    BN_bn2binpad(ECDSA_SIG_get0_s(sig), bytes + 32, 32);
    ECDSA_SIG_free(sig);
    return out;
  }

  std::shared_ptr<EVP_PKEY> key_;
  bool ec_;
};

}  // namespace malachite::server::testing
