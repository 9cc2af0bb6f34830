// Request authentication (spec §10): Shared Key and Shared Key Lite against the configured
// accounts, with the service's date and skew rules, and shared access signatures (sas.h).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/edm.h"
#include "common/error.h"
#include "config/server_config.h"
#include "server/auth/account_directory.h"
#include "server/auth/bearer.h"
#include "server/auth/sas.h"
#include "server/auth/shared_key.h"
#include "server/http/message.h"
#include "server/http/route.h"

namespace malachite::server {

enum class AuthScheme { kSharedKey, kSharedKeyLite, kSas, kBearer };

// Who a request was authenticated as.
struct Principal {
  AuthScheme scheme = AuthScheme::kSharedKey;
  std::string_view account;  // views the authenticated Route's account
  // What a SAS request may do (scheme kSas only): handlers check entity keys and ranges with it.
  std::shared_ptr<const SasGrant> sas;
  // A bearer-token request (scheme kBearer): the token's oid and what its roles allow; $batch
  // checks each of its operations with AuthorizeBearerOperation.
  std::string object_id = {};
  RbacActions rbac = 0;
};

class Authenticator {
 public:
  // Authenticates against the accounts of `directory`, read at each request (accounts made at
  // run time are known from their next request on). With a `bearer` verifier it accepts
  // Microsoft Entra ID bearer tokens checked by it (spec §10.9); null `bearer`: a Bearer header
  // is an unknown scheme (kInvalidAuthenticationInfo).
  explicit Authenticator(std::shared_ptr<const AccountDirectory> directory,
                         std::shared_ptr<const BearerVerifier> bearer = nullptr);
  // A fixed set of accounts. REQUIRES: keys are base64 (ParseArgs checked them).
  explicit Authenticator(const std::vector<AccountConfig>& accounts,
                         std::shared_ptr<const BearerVerifier> bearer = nullptr);

  // Authenticates `request` (routed as `route`) at time `now`. Preflight is not authenticated
  // and must not be passed here.
  // Errors (Azure: spec §10.5–10.6):
  //   kInvalidAuthenticationInfo — Authorization header not "<scheme> <account>:<signature>",
  //     or more than one Authorization header;
  //   kAuthenticationFailed — anonymous, unknown account, account differing from the URL,
  //     missing/unparsable date, date off by more than 15 minutes, signature mismatch.
  //     error.detail holds the service's AuthenticationErrorDetail text.
  // With a bearer verifier (spec §10.9), `Authorization: Bearer <token>` is checked by
  // BearerVerifier::Verify against AccountEndpoint(request, route, "") as audience; a rejected
  // token is kInvalidAuthenticationInfoBearer (401, with a challenge) when x-ms-version is
  // 2020-12-06 or later, else kAuthenticationFailed; an anonymous request at those versions is
  // kNoAuthenticationInformation (401). Then the principal's roles must allow route.op
  // (kAuthorizationPermissionMismatch). A token with SAS parameters is kInvalidAuthenticationInfo.
  // With `sig` in the query the request is a SAS (spec §10.7–10.8): VerifySas errors, then
  // AuthorizeSasOperation errors for route.op, and for entity routes with keys in the URL the
  // key range (kAuthorizationFailure). `lookup` finds stored access policies for `si` (none:
  // every `si` is unknown).
  Result<Principal> Authenticate(const Request& request, const Route& route, DateTime now,
                                 const PolicyLookup& lookup = {}) const;

  // The bearer verifier (its challenge for 401 answers), or null without --oauth.
  const BearerVerifier* bearer() const { return bearer_.get(); }

 private:
  Result<void> CheckDate(const Request& request, DateTime now) const;
  Result<Principal> AuthenticateSas(const Request& request, const Route& route, DateTime now,
                                    const PolicyLookup& lookup) const;
  Result<Principal> AuthenticateBearer(const Request& request, const Route& route,
                                       std::string_view token, DateTime now) const;

  std::shared_ptr<const AccountDirectory> directory_;
  std::shared_ptr<const BearerVerifier> bearer_;  // null without --oauth
};

}  // namespace malachite::server
