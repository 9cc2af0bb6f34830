// Request authentication (spec §10): Shared Key and Shared Key Lite against the configured
// accounts, with the service's date and skew rules. SAS is a seam for later work.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/edm.h"
#include "common/error.h"
#include "config/server_config.h"
#include "server/http_message.h"
#include "server/route.h"
#include "server/shared_key.h"

namespace malachite::server {

enum class AuthScheme { kSharedKey, kSharedKeyLite, kSas };

// Who a request was authenticated as.
struct Principal {
  AuthScheme scheme = AuthScheme::kSharedKey;
  std::string_view account;  // lives as long as the Authenticator
};

class Authenticator {
 public:
  // Decodes every account key once. REQUIRES: keys are base64 (ParseArgs checked them).
  explicit Authenticator(const std::vector<AccountConfig>& accounts);

  // Authenticates `request` (routed as `route`) at time `now`. Preflight is not authenticated
  // and must not be passed here.
  // Errors (Azure: spec §10.5–10.6):
  //   kInvalidAuthenticationInfo — Authorization header not "<scheme> <account>:<signature>";
  //   kAuthenticationFailed — anonymous, unknown account, account differing from the URL, SAS
  //     (not implemented yet), missing/unparsable date, date off by more than 15 minutes,
  //     signature mismatch. error.detail holds the service's AuthenticationErrorDetail text.
  Result<Principal> Authenticate(const Request& request, const Route& route, DateTime now) const;

 private:
  struct Account {
    std::string name;
    std::vector<HmacSha256Key> keys;  // key1 (and key2), ready to sign
  };
  const Account* FindAccount(std::string_view name) const;
  Result<void> CheckDate(const Request& request, DateTime now) const;

  std::vector<Account> accounts_;
};

}  // namespace malachite::server
