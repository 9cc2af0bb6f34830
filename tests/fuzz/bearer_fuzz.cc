// libFuzzer target for bearer tokens (spec §10.9): an arbitrary Authorization header value through
// the Authenticator of an --oauth server (GET /devstoreaccount1/Tables over HTTPS, at a version
// with and without the bearer challenge), and the header's token through DecodeJwt and the
// signature check of a fixed JWKS (RS256 and ES256 keys). Invariants beyond "no crash": the
// Authenticator succeeds only as a Bearer principal or fails with an authentication code the
// header names; a decoded token's claims are what the checks read; a signature check gives one
// of its four answers and accepts only what its keys signed (the two signed seeds).
//
// With clang: scripts/fuzz bearer. In the GCC build, bearer_fuzz_driver_test.cc runs this entry
// point on mutations of the seeds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "common/datetime.h"
#include "server/auth/authenticator.h"
#include "server/auth/issuer_keys.h"
#include "server/auth/jwt.h"
#include "server/http/router.h"
#include "tests/fuzz/bearer_seeds.h"

namespace {

using namespace malachite;
using namespace malachite::server;

const Authenticator& OAuthAuthenticator() {
  static const Authenticator authenticator = [] {
    OAuthConfig config;
    config.enabled = true;
    return Authenticator({{std::string(kDevAccountName), std::string(kDevAccountKey), {}}},
                         *BearerVerifier::Create(config));
  }();
  return authenticator;
}

const IssuerKeys& Keys() {
  static const IssuerKeys keys = *IssuerKeys::Parse(fuzz::BearerJwks());
  return keys;
}

bool AllowedAuthError(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidAuthenticationInfo:
    case ErrorCode::kInvalidAuthenticationInfoBearer:
    case ErrorCode::kAuthenticationFailed:
    case ErrorCode::kAuthorizationPermissionMismatch:
      return true;
    default:
      return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string header(reinterpret_cast<const char*>(data), size);
  const DateTime now = *ParseIso8601("2026-11-21T05:21:46Z");
  for (const char* version : {"2019-02-02", "2020-12-06"}) {
    Request request;
    request.method = "GET";
    request.target = "/devstoreaccount1/Tables";
    request.secure = true;
    request.headers = {{"Host", "devstoreaccount1.localhost:10002"},
                       {"x-ms-version", version},
                       {"x-ms-date", "Sat, 21 Nov 2026 05:21:46 GMT"},
                       {"Authorization", header}};
    const Route route = *RouteRequest(request);
    auto principal = OAuthAuthenticator().Authenticate(request, route, now);
    if (principal && principal->scheme != AuthScheme::kBearer) std::abort();
    if (!principal && !AllowedAuthError(principal.error().code)) std::abort();
    // The 401 form only where the version asks for it.
    if (!principal && principal.error().code == ErrorCode::kInvalidAuthenticationInfoBearer &&
        std::string_view(version) < "2020-12-06") {
      std::abort();
    }
  }
  const std::string_view token =
      header.starts_with("Bearer ") ? std::string_view(header).substr(7) : header;
  if (auto jwt = DecodeJwt(token)) {
    if (jwt->signing_input.size() >= token.size()) std::abort();
    const SignatureCheck check =
        Keys().Verify(jwt->alg, jwt->kid, jwt->signing_input, jwt->signature);
    if (check == SignatureCheck::kVerified) {
      // Only what the keys signed: one of the two signed seeds' input and signature bytes (a
      // base64url text may spell the same bytes differently in its last character's spare bits).
      bool signed_seed = false;
      for (std::size_t i = 0; i < 2; ++i) {
        auto seed = DecodeJwt(std::string_view(fuzz::BearerSeeds()[i]).substr(7));
        signed_seed = signed_seed || (seed->signing_input == jwt->signing_input &&
                                      seed->signature == jwt->signature);
      }
      if (!signed_seed) std::abort();
    }
  }
  return 0;
}
