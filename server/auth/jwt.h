// JSON Web Tokens as Microsoft Entra ID issues them for Azure Storage (RFC 7519 in the JWS
// compact form of RFC 7515): decoding into the claims the Table service checks (spec §10.9).
// Decoding verifies nothing; issuer_keys.h checks signatures, bearer.h the claims.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace malachite::server {

struct Jwt {
  std::string alg;                         // header "alg", e.g. "RS256"
  std::string kid;                         // header "kid" (empty when absent)
  std::string issuer;                      // "iss" (empty when absent)
  std::vector<std::string> audiences;      // "aud": one string, or an array of strings
  std::string object_id;                   // "oid": the principal (empty when absent)
  std::string tenant_id;                   // "tid" (empty when absent)
  std::optional<std::int64_t> not_before;  // "nbf", seconds since 1970-01-01 UTC
  std::optional<std::int64_t> expires;     // "exp", seconds since 1970-01-01 UTC
  std::string signing_input;  // "<header>.<payload>" as sent: what the signature covers
  std::string signature;      // the third segment, decoded (may be empty)
};

// Decodes `token`: three '.'-separated base64url segments whose first two are JSON objects.
// nullopt when it is not such a token, or a checked claim has the wrong JSON type (iss, oid, tid,
// alg, kid not strings; aud not a string or array of strings; nbf, exp not numbers). Other
// claims are ignored.
std::optional<Jwt> DecodeJwt(std::string_view token);

}  // namespace malachite::server
