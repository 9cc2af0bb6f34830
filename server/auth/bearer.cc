#include "server/auth/bearer.h"

#include <algorithm>
#include <array>

#include "common/datetime.h"
#include "common/encoding.h"
#include "server/auth/jwt.h"

namespace malachite::server {
namespace {

// Azure: spec §10.9 — the resource every Azure Storage token is issued for (the challenge's
// resource_id).
constexpr std::string_view kStorageResource = "https://storage.azure.com";
// Azure: spec §10.9 — the same resource in the sovereign clouds, whose tokens the service there
// accepts: Azure China, Azure US Government (the SDKs' TableAudience values), and Azure US
// Government under the name its documentation gives the storage scope.
constexpr std::array<std::string_view, 3> kSovereignStorageResources = {
    "https://storage.azure.cn",
    "https://storage.azure.us",
    "https://storage.usgovcloudapi.net",
};
// Azure: spec §10.9 — the host suffix of an account's Table endpoint in the public, China and
// US Government clouds ("https://<account>.table.core.windows.net").
constexpr std::array<std::string_view, 3> kTableEndpointSuffixes = {
    ".table.core.windows.net",
    ".table.core.chinacloudapi.cn",
    ".table.core.usgovcloudapi.net",
};
// Azure: spec §10.9 — the Azure Storage application's ID, the audience of a v2.0 access token
// (`accessTokenAcceptedVersion` 2) issued for that resource; exact, no trailing '/'.
constexpr std::string_view kStorageApplicationId = "e406a681-f3d4-42a8-90b6-c2b029497af1";

// Azure: spec §10.9 — Entra ID issuers: v1 tokens "https://sts.windows.net/<tenant>/", v2 tokens
// "https://login.microsoftonline.com/<tenant>/v2.0", and the same forms of the national clouds.
struct IssuerForm {
  std::string_view prefix;
  std::string_view suffix;
};
constexpr std::array<IssuerForm, 5> kIssuerForms = {{
    {"https://sts.windows.net/", "/"},
    {"https://sts.chinacloudapi.cn/", "/"},
    {"https://login.microsoftonline.com/", "/v2.0"},
    {"https://login.microsoftonline.us/", "/v2.0"},
    {"https://login.chinacloudapi.cn/", "/v2.0"},
}};

tl::unexpected<Error> Rejected(std::string detail) {
  return Fail(ErrorCode::kAuthenticationFailed, {}, std::move(detail));
}

// The tenant GUID of an Entra ID issuer, or "" when `issuer` is not of an Entra ID form.
std::string IssuerTenant(std::string_view issuer) {
  for (const IssuerForm& form : kIssuerForms) {
    if (!issuer.starts_with(form.prefix) || !issuer.ends_with(form.suffix) ||
        issuer.size() < form.prefix.size() + form.suffix.size()) {
      continue;
    }
    std::string_view tenant = issuer.substr(form.prefix.size());
    tenant.remove_suffix(form.suffix.size());
    if (ParseGuid(tenant)) return AsciiLower(tenant);
  }
  return {};
}

// `audience` names `expected`, with or without a trailing '/'.
bool Names(std::string_view audience, std::string_view expected) {
  if (expected.empty()) return false;
  if (audience.size() == expected.size() + 1 && audience.back() == '/') audience.remove_suffix(1);
  return AsciiIEquals(audience, expected);
}

// `audience` is `account`'s Table endpoint in one of the clouds, with or without a trailing '/'.
bool NamesAccountEndpoint(std::string_view audience, std::string_view account) {
  constexpr std::string_view kScheme = "https://";
  if (account.empty() || audience.size() < kScheme.size() ||
      !AsciiIEquals(audience.substr(0, kScheme.size()), kScheme)) {
    return false;
  }
  audience.remove_prefix(kScheme.size());
  if (!audience.empty() && audience.back() == '/') audience.remove_suffix(1);
  if (audience.size() <= account.size() ||
      !AsciiIEquals(audience.substr(0, account.size()), account)) {
    return false;
  }
  audience.remove_prefix(account.size());
  return std::any_of(
      kTableEndpointSuffixes.begin(), kTableEndpointSuffixes.end(),
      [audience](std::string_view suffix) { return AsciiIEquals(audience, suffix); });
}

// `audience` is one the Table service accepts for `account` reached at `endpoint`.
bool AcceptedAudience(std::string_view audience, std::string_view account,
                      std::string_view endpoint) {
  return Names(audience, kStorageResource) || AsciiIEquals(audience, kStorageApplicationId) ||
         std::any_of(kSovereignStorageResources.begin(), kSovereignStorageResources.end(),
                     [audience](std::string_view resource) { return Names(audience, resource); }) ||
         NamesAccountEndpoint(audience, account) || Names(audience, endpoint);
}

Result<void> CheckLifetime(const Jwt& jwt, DateTime now) {
  const std::int64_t seconds = (now.ticks - kUnixEpochTicks) / kTicksPerSecond;
  if (!jwt.expires) {
    return Rejected("Lifetime validation failed. The token is missing an Expiration Time.");
  }
  if (*jwt.expires < seconds - kTokenClockSkewSeconds) {
    return Rejected("Lifetime validation failed. The token is expired.");
  }
  if (jwt.not_before && *jwt.not_before > seconds + kTokenClockSkewSeconds) {
    return Rejected("Lifetime validation failed. The token is not yet valid.");
  }
  return {};
}

}  // namespace

Result<std::shared_ptr<const BearerVerifier>> BearerVerifier::Create(const OAuthConfig& config) {
  std::shared_ptr<BearerVerifier> verifier(new BearerVerifier());
  verifier->config_ = config;
  if (!config.issuer_keys_file.empty()) {
    auto keys = IssuerKeys::Load(config.issuer_keys_file);
    if (!keys) return tl::unexpected(keys.error());
    verifier->keys_ = std::move(*keys);
  }
  // Azure: spec §10.9 — the challenge of the real service (space-separated parameters).
  verifier->challenge_ = "Bearer authorization_uri=https://login.microsoftonline.com/" +
                         (config.tenant.empty() ? std::string("common") : config.tenant) +
                         "/oauth2/authorize resource_id=" + std::string(kStorageResource);
  return std::shared_ptr<const BearerVerifier>(std::move(verifier));
}

Result<void> BearerVerifier::CheckSignature(std::string_view alg, std::string_view kid,
                                            std::string_view signing_input,
                                            std::string_view signature) const {
  if (!keys_) return {};
  std::string cache_key;
  cache_key.reserve(signing_input.size() + 1 + signature.size());
  cache_key.append(signing_input).append(1, '\n').append(signature);
  {
    std::lock_guard lock(verified_mutex_);
    if (verified_.contains(cache_key)) return {};
  }
  // Emulator: the service's exact wording for these is not known; the prefix is IdentityModel's.
  switch (keys_->Verify(alg, kid, signing_input, signature)) {
    case SignatureCheck::kVerified: {
      std::lock_guard lock(verified_mutex_);
      if (verified_.size() >= kVerifiedCacheSize) verified_.clear();
      verified_.insert(std::move(cache_key));
      return {};
    }
    case SignatureCheck::kInvalid:
      return Rejected(
          "Signature validation failed. The signature does not verify with the "
          "issuer key.");
    case SignatureCheck::kUnknownKey:
      return Rejected("Signature validation failed. No issuer key matches kid '" +
                      ToValidUtf8(kid) + "'.");
    case SignatureCheck::kUnsupportedAlgorithm:
      break;
  }
  return Rejected("Signature validation failed. Algorithm '" + ToValidUtf8(alg) +
                  "' is not supported (RS256, ES256).");
}

Result<BearerIdentity> BearerVerifier::Verify(std::string_view token, std::string_view account,
                                              std::string_view endpoint, DateTime now) const {
  auto jwt = DecodeJwt(token);
  // Emulator: wording of ours; the service's text for a token that is not a JWT is not known.
  if (!jwt) return Rejected("The bearer token is not a well-formed JWT.");
  if (auto ok = CheckSignature(jwt->alg, jwt->kid, jwt->signing_input, jwt->signature); !ok) {
    return tl::unexpected(ok.error());
  }
  if (auto ok = CheckLifetime(*jwt, now); !ok) return tl::unexpected(ok.error());
  const bool audience_ok = std::any_of(
      jwt->audiences.begin(), jwt->audiences.end(),
      [&](const std::string& audience) { return AcceptedAudience(audience, account, endpoint); });
  if (!audience_ok) return Rejected("Audience validation failed. Audience did not match.");
  const std::string tenant = IssuerTenant(jwt->issuer);
  if (tenant.empty() || (!config_.tenant.empty() && tenant != config_.tenant)) {
    return Rejected("Issuer validation failed. Issuer did not match.");
  }
  return BearerIdentity{jwt->object_id, config_.ActionsOf(jwt->object_id)};
}

Result<void> AuthorizeBearerOperation(RbacActions granted, Operation op) {
  if (Grants(granted, TraitsOf(op).rbac_needs)) return {};
  return Fail(ErrorCode::kAuthorizationPermissionMismatch);
}

}  // namespace malachite::server
