// Microsoft Entra ID bearer tokens (spec §10.9): the checks the Table service makes on a token
// (well-formed, signature when issuer keys are configured, lifetime, audience, issuer) and the
// roles its principal holds. The Authenticator calls it for `Authorization: Bearer <token>`.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

#include "common/edm.h"
#include "common/error.h"
#include "common/operation.h"
#include "config/oauth_config.h"
#include "server/auth/issuer_keys.h"

namespace malachite::server {

// Azure: spec §10.9 — the clock skew allowed on nbf and exp (Microsoft.IdentityModel's default).
inline constexpr std::int64_t kTokenClockSkewSeconds = 300;

// Who a verified token speaks for.
struct BearerIdentity {
  std::string object_id;    // "oid" (empty when the token has none)
  RbacActions actions = 0;  // what its roles allow (OAuthConfig::ActionsOf)
};

// Immutable after Create (but for a cache of verified signatures); thread-safe.
class BearerVerifier {
 public:
  // Reads config.issuer_keys_file when set. Errors: those of IssuerKeys::Load.
  static Result<std::shared_ptr<const BearerVerifier>> Create(const OAuthConfig& config);

  // Checks `token` for a request to `account`, reached at `endpoint` (its URL as the client
  // addressed it: "https://host:port/account" or "https://account.localhost:port"; may be
  // empty), at time `now`. In this order, failing with kAuthenticationFailed and the service's
  // AuthenticationErrorDetail in error.detail:
  //   not three base64url segments of JSON ........ the token is not a well-formed JWT;
  //   with issuer keys: alg, kid, signature ........ "Signature validation failed. ...";
  //   exp missing or passed, nbf ahead (± skew) .... "Lifetime validation failed. ...";
  //   aud none of https://storage.azure.com and the sovereign clouds' storage.azure.cn,
  //   storage.azure.us and storage.usgovcloudapi.net, Azure Storage's application ID,
  //   https://<account>.table.core.windows.net (or .table.core.chinacloudapi.cn,
  //   .table.core.usgovcloudapi.net) and `endpoint`, the URLs with or without '/'
  //   ............................................. "Audience validation failed. ...";
  //   iss not an Entra ID issuer (v1 sts.windows.net/<tenant>/, v2 login.microsoftonline.com/
  //   <tenant>/v2.0, their national clouds) of the configured tenant
  //   ............................................. "Issuer validation failed. ...".
  // The caller turns the error into the form the request's version gets (Authenticator).
  Result<BearerIdentity> Verify(std::string_view token, std::string_view account,
                                std::string_view endpoint, DateTime now) const;

  // The WWW-Authenticate value of a bearer challenge: the configured tenant's (else "common")
  // authorization URI and resource_id https://storage.azure.com.
  const std::string& challenge() const { return challenge_; }
  // False when tokens are decoded but their signatures not checked (no --oauth-issuer-keys).
  bool verifies_signatures() const { return keys_.has_value(); }

 private:
  BearerVerifier() = default;
  Result<void> CheckSignature(std::string_view alg, std::string_view kid,
                              std::string_view signing_input, std::string_view signature) const;

  OAuthConfig config_;
  std::optional<IssuerKeys> keys_;
  std::string challenge_;
  // Tokens whose signature verified ("<signing input>\n<signature>"): clients send one token for
  // up to an hour, and an RSA or ECDSA check costs tens of microseconds. Emptied when it reaches
  // kVerifiedCacheSize. Only the signature is cached; lifetime and claims are checked every time.
  static constexpr std::size_t kVerifiedCacheSize = 4096;
  mutable std::mutex verified_mutex_;
  mutable std::unordered_set<std::string> verified_;
};

// Azure: spec §10.9 — the 403 a principal gets for an operation its roles do not allow.
// Errors: kAuthorizationPermissionMismatch when `granted` lacks an action `op` needs.
Result<void> AuthorizeBearerOperation(RbacActions granted, Operation op);

}  // namespace malachite::server
