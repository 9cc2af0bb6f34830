// The issuer keys (issuer_keys.h): a JSON Web Key Set's RSA and EC keys, the RS256 and ES256
// signatures they verify, and the one-line reasons a set cannot be used.
#include "server/auth/issuer_keys.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>

#include "common/encoding.h"
#include "server/auth/jwt.h"
#include "tests/unit/server/test_tokens.h"

namespace malachite::server {
namespace {

using testing::TestSigner;

constexpr std::string_view kClaims =
    R"({"aud":"https://storage.azure.com","oid":"11111111-2222-3333-4444-555555555555"})";
constexpr std::string_view kForgedClaims = R"({"aud":"https://storage.azure.com","oid":"admin"})";

}  // namespace

TEST_CASE("issuer_keys: RS256 and ES256 signatures verify with their JWKS keys only", "[bearer]") {
  const TestSigner& rsa = TestSigner::Rsa();
  const TestSigner& ec = TestSigner::Ec();
  auto keys = IssuerKeys::Parse(R"({"keys":[)" + rsa.Jwk("r1") + "," + ec.Jwk("e1") + "]}");
  REQUIRE(keys);
  CHECK(keys->size() == 2);
  auto check = [&](const std::string& token) {
    auto jwt = DecodeJwt(token);
    REQUIRE(jwt);
    return keys->Verify(jwt->alg, jwt->kid, jwt->signing_input, jwt->signature);
  };
  CHECK(check(rsa.Sign("r1", kClaims)) == SignatureCheck::kVerified);
  CHECK(check(ec.Sign("e1", kClaims)) == SignatureCheck::kVerified);
  // Without kid every key of the algorithm's type is tried.
  CHECK(check(rsa.Sign("", kClaims)) == SignatureCheck::kVerified);
  CHECK(check(rsa.Sign("nope", kClaims)) == SignatureCheck::kUnknownKey);
  CHECK(check(ec.Sign("r1", kClaims)) == SignatureCheck::kUnknownKey);  // r1 is an RSA key
  // Changed claims under the old signature.
  std::string token = rsa.Sign("r1", kClaims);
  const std::size_t dot = token.find('.');
  const std::string forged =
      token.substr(0, dot + 1) + Base64UrlEncode(kForgedClaims) + token.substr(token.rfind('.'));
  CHECK(check(forged) == SignatureCheck::kInvalid);
  std::string ec_token = ec.Sign("e1", kClaims);
  ec_token[ec_token.size() - 2] = ec_token[ec_token.size() - 2] == 'A' ? 'B' : 'A';
  CHECK(check(ec_token) == SignatureCheck::kInvalid);
  for (std::string_view alg : {"none", "HS256", "RS512", ""}) {
    CHECK(keys->Verify(alg, "r1", "a.b", "sig") == SignatureCheck::kUnsupportedAlgorithm);
  }
  CHECK(keys->Verify("ES256", "e1", "a.b", "short") == SignatureCheck::kInvalid);
}

TEST_CASE("issuer_keys: a JWKS that cannot be used stops with a one-line reason", "[bearer]") {
  const std::string rsa = TestSigner::Rsa().Jwk("r1");
  auto error = [](std::string_view jwks) {
    auto keys = IssuerKeys::Parse(jwks);
    return keys ? std::string("ok") : keys.error().message;
  };
  CHECK(error("[]") ==
        R"(issuer keys: not a JSON Web Key Set (a JSON object with a "keys" array))");
  CHECK(error(R"({"keys":[]})") == "issuer keys: the set holds no signing key");
  CHECK(error(R"({"keys":[{"kty":"oct","k":"c2VjcmV0"}]})") ==
        "issuer keys: unsupported kty 'oct' (expected RSA or EC)");
  CHECK(error(R"({"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"}]})") ==
        "issuer keys: an RSA key is shorter than 2048 bits");
  CHECK(error(R"({"keys":[{"kty":"RSA","e":"AQAB"}]})") ==
        "issuer keys: an RSA key needs base64url n and e");
  CHECK(error(R"({"keys":[{"kty":"EC","crv":"P-384","x":"AA","y":"AA"}]})") ==
        "issuer keys: an EC key must have crv P-256");
  CHECK(error(R"({"keys":[{"kty":"EC","crv":"P-256","x":"AQ","y":"AQ"}]})") ==
        "issuer keys: OpenSSL refused an EC key (not a point on P-256?)");
  // Encryption keys are skipped; a set of only those has no signing key.
  CHECK(error(R"({"keys":[{"kty":"oct","use":"enc"}]})") ==
        "issuer keys: the set holds no signing key");
  CHECK(error(R"({"keys":[{"kty":"oct","use":"enc"},)" + rsa + "]}") == "ok");
  CHECK(IssuerKeys::Load("/nonexistent/keys.json").error().message ==
        "cannot read issuer keys file '/nonexistent/keys.json'");
}

}  // namespace malachite::server
