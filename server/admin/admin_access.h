// Who may use the emulator's admin endpoints: every /-/ path except the health probes
// (/-/healthy, /-/ready) — /-/faults can drop every connection, /-/partitions prints partition
// key values. A client on loopback may; anyone else needs the credentials of one of the
// server's accounts. --admin-open (and --loose) opens them to everyone.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "config/server_config.h"
#include "server/auth/authenticator.h"
#include "server/http/message.h"

namespace malachite::server {

// True for the health probes, which every client may call (orchestrators, compose, load
// balancers probe from outside the container).
bool IsHealthProbePath(std::string_view path);

// True when `address` (Request::remote_address) is a loopback address: 127.0.0.0/8, ::1, or
// ::ffff:127.x.y.z. An empty address is a request that did not come over the network (an
// in-process caller), and counts as loopback; the session always fills in a network peer.
bool IsLoopbackAddress(std::string_view address);

// Why a request from a browser page may not use the admin endpoints on a loopback client's
// standing (a page of another origin, or a name other than a loopback one, as DNS rebinding
// gives); empty when it may, or when no browser sent it (no Origin or Sec-Fetch-Site header).
std::string ForeignPageReason(const Request& request);

class AdminAccess {
 public:
  // `open`: every client may (ServerConfig::admin_open or ::loose). `clock` must outlive the
  // AdminAccess.
  AdminAccess(const std::vector<AccountConfig>& accounts, bool open, const Clock& clock);

  // The rule for `config`'s --admin-open/--loose and accounts.
  static AdminAccess ForConfig(const ServerConfig& config, const Clock& clock);

  // Whether `request` may use an admin endpoint. True for a loopback client (unless a browser
  // sent it from a foreign page: ForeignPageReason), or one whose
  // Authorization header carries an account's credentials:
  //   SharedKey/SharedKeyLite <account>:<signature> — signed as a Table request is (spec §10.2),
  //     with CanonicalizedResource "/<account><path>" and a Date/x-ms-date within 15 minutes;
  //   Bearer <account key> — the base64 key as it appears in connection strings (scripts);
  //   Basic base64(<account>:<account key>) — what a browser sends after the 401 challenge.
  // Otherwise false, with `refusal` filled in: 401 (no credentials; WWW-Authenticate offers
  // Basic and Bearer) or 403 (credentials that match no account), text/plain bodies saying why.
  // When `credential_account` is given, it is set to the account whose credentials admitted the
  // request, and left empty when the request needed none (loopback, --admin-open).
  bool Admit(const Request& request, Response& refusal,
             std::string* credential_account = nullptr) const;

 private:
  // The account `authorization` holds the credentials of, if any.
  std::optional<std::string> CredentialsAccount(const Request& request,
                                                std::string_view authorization) const;

  bool open_;
  std::vector<AccountConfig> accounts_;
  Authenticator authenticator_;
  const Clock& clock_;
};

}  // namespace malachite::server
