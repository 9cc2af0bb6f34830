#include "server/auth/authenticator.h"

#include <optional>
#include <string>

#include "common/datetime.h"
#include "common/encoding.h"
#include "common/limits.h"
#include "common/operation.h"
#include "server/auth/sas_authorize.h"
#include "server/auth/shared_key.h"
#include "server/http/host_style.h"

namespace malachite::server {
namespace {

tl::unexpected<Error> AuthFailed(std::string detail) {
  return Fail(ErrorCode::kAuthenticationFailed, {}, std::move(detail));
}

struct ParsedAuthorization {
  AuthScheme scheme;
  std::string_view account;
  std::string_view signature;
};

// "SharedKey <account>:<signature>" or "SharedKeyLite <account>:<signature>".
std::optional<ParsedAuthorization> ParseAuthorization(std::string_view value) {
  std::size_t space = value.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  std::string_view scheme = value.substr(0, space);
  std::string_view credentials = value.substr(space + 1);
  while (!credentials.empty() && credentials.front() == ' ') credentials.remove_prefix(1);
  std::size_t colon = credentials.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == credentials.size()) {
    return std::nullopt;
  }
  ParsedAuthorization out{AuthScheme::kSharedKey, credentials.substr(0, colon),
                          credentials.substr(colon + 1)};
  if (scheme == "SharedKey") return out;
  if (scheme == "SharedKeyLite") {
    out.scheme = AuthScheme::kSharedKeyLite;
    return out;
  }
  return std::nullopt;
}

// The token of "Bearer <token>" (RFC 6750 §2.1; the scheme is case-insensitive), or nullopt for
// another scheme. The token may be empty.
std::optional<std::string_view> BearerToken(std::string_view value) {
  constexpr std::string_view kScheme = "Bearer";
  if (value.size() < kScheme.size() || !AsciiIEquals(value.substr(0, kScheme.size()), kScheme)) {
    return std::nullopt;
  }
  value.remove_prefix(kScheme.size());
  if (!value.empty() && value.front() != ' ') return std::nullopt;
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  return value;
}

// Azure: spec §10.9 — the Table service answers with a bearer challenge from version 2020-12-06.
bool ChallengeVersion(const Request& request) {
  auto version = request.Find("x-ms-version");
  return version && *version >= std::string_view("2020-12-06");
}

}  // namespace

Authenticator::Authenticator(std::shared_ptr<const AccountDirectory> directory,
                             std::shared_ptr<const BearerVerifier> bearer)
    : directory_(std::move(directory)), bearer_(std::move(bearer)) {}

Authenticator::Authenticator(const std::vector<AccountConfig>& accounts,
                             std::shared_ptr<const BearerVerifier> bearer)
    : Authenticator(std::make_shared<const AccountDirectory>(accounts), std::move(bearer)) {}

Result<void> Authenticator::CheckDate(const Request& request, DateTime now) const {
  auto text = request.Find("x-ms-date");
  if (!text) text = request.Find("Date");
  // Azure: spec §10.5 — details as the service words them.
  if (!text || text->empty()) return AuthFailed("Request date header not specified");
  // A client sends the same date on every request of a second: the last one parsed on this
  // thread is kept with its value.
  struct ParsedDate {
    std::string text;
    std::optional<DateTime> value;
  };
  thread_local ParsedDate last;
  if (*text != last.text) {
    last.text.assign(*text);
    last.value = ParseRfc1123(*text);
  }
  const std::optional<DateTime>& date = last.value;
  if (!date) return AuthFailed("The Date header in the request is incorrect.");
  const std::int64_t max_skew = limits::kMaxClockSkewSeconds * kTicksPerSecond;
  if (now.ticks - date->ticks > max_skew) {
    return AuthFailed("Request date header too old: '" + std::string(*text) + "'");
  }
  // Emulator: the service's own code does not refuse future dates; clocks of clients and a
  // local emulator can disagree either way, so the same 15 minutes apply.
  if (date->ticks - now.ticks > max_skew) {
    return AuthFailed("Request date header too far in the future: '" + std::string(*text) + "'");
  }
  return {};
}

Result<Principal> Authenticator::AuthenticateSas(const Request& request, const Route& route,
                                                 DateTime now, const PolicyLookup& lookup) const {
  const auto accounts = directory_->Current();  // keeps `account` alive
  const Account* account = accounts->Find(route.account);
  if (account == nullptr) {
    return AuthFailed("The account '" + route.account + "' of this request's URL is not known.");
  }
  auto grant = VerifySas(ParseSasToken(route.query), account->name, account->signing_keys, request,
                         now, lookup);
  if (!grant) return tl::unexpected(grant.error());
  if (auto ok = AuthorizeSasOperation(*grant, route.op, route.table); !ok) {
    return tl::unexpected(ok.error());
  }
  // Azure: spec §10.8 — writes to one entity named by the URL are checked against the key range
  // here, before their body is read (the trait sas_checks_route_keys); Insert (keys in the body)
  // and $batch operations are checked by their handlers; queries are narrowed to the range, and
  // so is Get Entity (its handler answers ResourceNotFound outside it).
  if (TraitsOf(route.op).sas_checks_route_keys) {
    if (auto ok = AuthorizeSasKeys(*grant, route.partition_key, route.row_key); !ok) {
      return tl::unexpected(ok.error());
    }
  }
  return Principal{AuthScheme::kSas, route.account,
                   std::make_shared<const SasGrant>(std::move(*grant))};
}

Result<Principal> Authenticator::AuthenticateBearer(const Request& request, const Route& route,
                                                    std::string_view token, DateTime now) const {
  const auto accounts = directory_->Current();  // keeps `account` alive
  const Account* account = accounts->Find(route.account);
  if (account == nullptr) {
    return AuthFailed("The account '" + route.account + "' of this request's URL is not known.");
  }
  // Emulator: unreachable with --oauth (it needs --cert); Azurite's wording.
  if (!request.secure) return AuthFailed("Authentication scheme Bearer is not allowed with HTTP.");
  if (token.empty()) {
    return Fail(ErrorCode::kInvalidAuthenticationInfo, {}, "The bearer token is empty.");
  }
  auto identity = bearer_->Verify(token, account->name, AccountEndpoint(request, route, ""), now);
  if (!identity) {
    Error error = std::move(identity.error());
    // Azure: spec §10.9 — 401 with a challenge from 2020-12-06, 403 AuthenticationFailed before.
    if (ChallengeVersion(request)) error.code = ErrorCode::kInvalidAuthenticationInfoBearer;
    return tl::unexpected(std::move(error));
  }
  if (auto ok = AuthorizeBearerOperation(identity->actions, route.op); !ok) {
    return tl::unexpected(ok.error());
  }
  return Principal{AuthScheme::kBearer, route.account, nullptr, std::move(identity->object_id),
                   identity->actions};
}

Result<Principal> Authenticator::Authenticate(const Request& request, const Route& route,
                                              DateTime now, const PolicyLookup& lookup) const {
  if (request.Count("Authorization") > 1) {
    return Fail(ErrorCode::kInvalidAuthenticationInfo, {}, "More than one Authorization header.");
  }
  auto header = request.Find("Authorization");
  std::optional<std::string_view> token = header ? BearerToken(*header) : std::nullopt;
  // Azure: spec §10 — SAS parameters take precedence over an Authorization header; §10.9 (rec.)
  // a bearer token cannot ride along with them.
  if (route.query.Find("sig") != nullptr) {
    if (token && bearer_) {
      return Fail(ErrorCode::kInvalidAuthenticationInfo, {},
                  "A bearer token cannot be combined with a shared access signature.");
    }
    return AuthenticateSas(request, route, now, lookup);
  }
  if (token && bearer_) return AuthenticateBearer(request, route, *token, now);
  if (!header) {
    // Azure: spec §10.9 — with Entra ID on, versions that know the bearer challenge get it.
    if (bearer_ && ChallengeVersion(request)) {
      return Fail(ErrorCode::kNoAuthenticationInformation);
    }
    // Azure: spec §10.6, §15 #2 — anonymous requests are refused with 403.
    return AuthFailed("Anonymous requests are not supported: sign the request with Shared Key.");
  }
  auto parsed = ParseAuthorization(*header);
  if (!parsed) {
    return Fail(
        ErrorCode::kInvalidAuthenticationInfo, {},
        token ? "Bearer tokens are accepted only when the emulator runs with --oauth." : "");
  }
  const auto accounts = directory_->Current();  // keeps `account` alive
  const Account* account = accounts->Find(route.account);
  if (account == nullptr || parsed->account != route.account) {
    return AuthFailed("The account '" + std::string(parsed->account) +
                      "' in the Authorization header does not match a known account of this "
                      "request's URL.");
  }
  if (auto ok = CheckDate(request, now); !ok) return tl::unexpected(ok.error());
  const std::string to_sign = parsed->scheme == AuthScheme::kSharedKey
                                  ? SharedKeyStringToSign(request, route)
                                  : SharedKeyLiteStringToSign(request, route);
  auto matches = SignatureMatches(account->signing_keys, to_sign, parsed->signature);
  if (!matches) return tl::unexpected(matches.error());
  if (*matches) return Principal{parsed->scheme, route.account, nullptr};
  if (route.secondary && !route.host_style) {
    // Emulator: the service strips "-secondary" from the path it signs (spec §10.4), but on a
    // path-style endpoint the SDKs sign other paths, so two more forms are accepted there only:
    // - the path as sent, suffix kept ("/<account>/<account>-secondary/..."): the .NET SDK inserts
    //   the suffix into the path of an IP-style endpoint and signs the URL it sends;
    // - the primary path ("/<account>/<account>/"): the Python SDK signs the primary URL and only
    //   then moves the request to the secondary (/<account>-secondary/<account>/...).
    Route as_sent = route;
    as_sent.secondary = false;
    Route primary = as_sent;
    primary.raw_path = "/" + route.account + "/";
    for (const Route* alt_route : {&as_sent, &primary}) {
      const std::string alt = parsed->scheme == AuthScheme::kSharedKey
                                  ? SharedKeyStringToSign(request, *alt_route)
                                  : SharedKeyLiteStringToSign(request, *alt_route);
      auto alt_matches = SignatureMatches(account->signing_keys, alt, parsed->signature);
      if (!alt_matches) return tl::unexpected(alt_matches.error());
      if (*alt_matches) return Principal{parsed->scheme, route.account, nullptr};
    }
  }
  // Azure: spec §10.5.
  return AuthFailed("The MAC signature found in the HTTP request '" +
                    std::string(parsed->signature) +
                    "' is not the same as any computed signature. Server used following string "
                    "to sign: '" +
                    to_sign + "'.");
}

}  // namespace malachite::server
