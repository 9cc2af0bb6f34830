// SAS verification (spec §10.7–10.8). Checks run in the order the service's front end uses:
// version and required fields, signature, stored policy, time window, source IP, protocol. The
// operation itself is authorized afterwards (sas_authorize.cc).
#include "server/auth/sas.h"

#include <array>
#include <boost/asio/ip/address.hpp>
#include <cstring>

#include "common/datetime.h"
#include "common/encoding.h"

namespace malachite::server {
namespace {

// Azure: spec §10.7–10.8, §13 — version gates of the SAS forms.
constexpr std::string_view kMinTableSasVersion = "2012-02-12";
constexpr std::string_view kMinAccountSasVersion = "2015-04-05";
constexpr std::string_view kTableResourcePrefixVersion = "2015-02-21";
constexpr std::string_view kIpProtocolVersion = "2015-04-05";
constexpr std::string_view kEncryptionScopeVersion = "2020-12-06";

tl::unexpected<Error> AuthFailed(std::string detail) {
  return Fail(ErrorCode::kAuthenticationFailed, {}, std::move(detail));
}

bool WellFormedVersion(std::string_view v) {
  if (v.size() != 10 || v[4] != '-' || v[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (v[i] < '0' || v[i] > '9') return false;
  }
  return true;
}

std::optional<std::uint8_t> ParseResourceTypes(std::string_view text) {
  std::uint8_t bits = 0;
  for (char c : text) {
    if (c == 's')
      bits |= kSasService;
    else if (c == 'c')
      bits |= kSasContainer;
    else if (c == 'o')
      bits |= kSasObject;
    else
      return std::nullopt;
  }
  return bits;
}

// An address as comparable bytes: IPv4 (also IPv4-mapped IPv6) as 4 bytes, IPv6 as 16.
std::optional<std::string> AddressBytes(std::string_view text) {
  std::string s(text);
  if (s.size() > 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
  boost::system::error_code ec;
  if (const auto v4 = boost::asio::ip::make_address_v4(s, ec); !ec) {
    const auto raw = v4.to_bytes();
    return std::string(reinterpret_cast<const char*>(raw.data()), 4);
  }
  const auto v6 = boost::asio::ip::make_address_v6(s, ec);
  if (ec) return std::nullopt;
  const auto raw = v6.to_bytes();
  static constexpr unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(raw.data(), kMapped, 12) == 0) {
    return std::string(reinterpret_cast<const char*>(raw.data() + 12), 4);
  }
  return std::string(reinterpret_cast<const char*>(raw.data()), 16);
}

// Azure: spec §10.7 — `sip` is one address or an inclusive range `a-b`.
Result<void> CheckSourceIp(std::string_view sip, std::string_view remote) {
  const std::size_t dash = sip.find('-');
  auto low = AddressBytes(sip.substr(0, dash));
  auto high = dash == std::string_view::npos ? low : AddressBytes(sip.substr(dash + 1));
  if (!low || !high || low->size() != high->size()) {
    return AuthFailed("Invalid IP address or range in signed IP (sip): '" + std::string(sip) + "'");
  }
  auto peer = AddressBytes(remote);
  if (peer && peer->size() == low->size() && *low <= *peer && *peer <= *high) return {};
  return Fail(ErrorCode::kAuthorizationSourceIPMismatch,
              "This request is not authorized to perform this operation using this source IP " +
                  std::string(remote) + ".");
}

// Azure: spec §10.7 — `spr` is "https" or "https,http".
Result<void> CheckProtocol(std::string_view spr, bool secure) {
  if (spr.empty() || spr == "https,http" || spr == "http,https") return {};
  if (spr == "https") {
    if (secure) return {};
    return Fail(ErrorCode::kAuthorizationProtocolMismatch);
  }
  return AuthFailed("Invalid signed protocol (spr): '" + std::string(spr) + "'");
}

Result<void> CheckSignature(const std::vector<HmacSha256Key>& keys, std::string_view sig,
                            const std::string& to_sign) {
  // '+' in an unencoded signature arrives as ' ' (form decoding of the query).
  std::string signature(sig);
  for (char& c : signature) {
    if (c == ' ') c = '+';
  }
  auto matches = SignatureMatches(keys, to_sign, signature);
  if (!matches) return tl::unexpected(matches.error());
  if (*matches) return {};
  // Azure: spec §10.8.
  return AuthFailed("Signature did not match. String to sign used was " + to_sign);
}

// The effective st/se/sp of a table SAS: the token's, completed by its stored policy (`si`).
struct Effective {
  std::string st, se, sp;
};

Result<Effective> MergePolicy(const SasToken& token, std::string_view account,
                              const PolicyLookup& lookup) {
  Effective out{std::string(token.st), std::string(token.se), std::string(token.sp)};
  if (token.si.empty()) return out;
  auto policy =
      lookup ? lookup(account, token.tn, token.si) : Result<std::optional<AccessPolicy>>{};
  if (!policy) return tl::unexpected(policy.error());
  if (!*policy) return AuthFailed("SAS identifier cannot be found for specified signed identifier");
  const AccessPolicy& p = **policy;
  // Azure: spec §10.8 — a field may come from the token or the policy, not both.
  if ((p.start && !token.st.empty()) || (p.expiry && !token.se.empty()) ||
      (p.permission && !token.sp.empty())) {
    return AuthFailed(
        "Access policy fields can be associated with signature or SAS identifier but not both");
  }
  if (p.start) out.st = FormatIso8601(*p.start);
  if (p.expiry) out.se = FormatIso8601(*p.expiry);
  if (p.permission) out.sp = *p.permission;
  return out;
}

// Azure: spec §10.8 — start and expiry: se after st, and now inside [st, se].
Result<void> CheckTimeWindow(std::string_view st, std::string_view se, DateTime now) {
  std::optional<DateTime> start;
  if (!st.empty() && !(start = ParseSignedTime(st))) {
    return AuthFailed("Signed start time (st) is not in a valid format: '" + std::string(st) + "'");
  }
  auto expiry = ParseSignedTime(se);
  if (!expiry) {
    return AuthFailed("Signed expiry time (se) is not in a valid format: '" + std::string(se) +
                      "'");
  }
  if (start && expiry->ticks <= start->ticks) {
    return AuthFailed("Signed expiry time [" + FormatRfc1123(*expiry) +
                      "] has to be after signed start time [" + FormatRfc1123(*start) + "]");
  }
  if ((start && now.ticks < start->ticks) || now.ticks > expiry->ticks) {
    return AuthFailed("Signature not valid in the specified time frame: Start [" +
                      (start ? FormatRfc1123(*start) : std::string()) + "] - Expiry [" +
                      FormatRfc1123(*expiry) + "] - Current [" + FormatRfc1123(now) + "]");
  }
  return {};
}

Result<SasGrant> VerifyAccountSas(const SasToken& token, std::string_view account,
                                  const std::vector<HmacSha256Key>& keys, DateTime now) {
  if (token.sv < kMinAccountSasVersion) {
    return AuthFailed("Account SAS requires signed version (sv) 2015-04-05 or later");
  }
  for (auto [value, name] : {std::pair{token.ss, "ss"}, std::pair{token.srt, "srt"},
                             std::pair{token.sp, "sp"}, std::pair{token.se, "se"}}) {
    if (value.empty()) return AuthFailed(std::string(name) + " is mandatory. Cannot be empty");
  }
  auto permissions = ParseSasPermissions(token.sp, true);
  auto types = ParseResourceTypes(token.srt);
  if (!permissions)
    return AuthFailed("Invalid signed permissions (sp): '" + std::string(token.sp) + "'");
  if (!types)
    return AuthFailed("Invalid signed resource types (srt): '" + std::string(token.srt) + "'");
  if (token.ss.find_first_not_of("bfqt") != std::string_view::npos) {
    return AuthFailed("Invalid signed services (ss): '" + std::string(token.ss) + "'");
  }
  if (auto ok = CheckSignature(keys, token.sig, AccountSasStringToSign(account, token)); !ok) {
    return tl::unexpected(ok.error());
  }
  // Azure: spec §10.7 — the token must cover the Table service.
  if (token.ss.find('t') == std::string_view::npos) {
    return Fail(ErrorCode::kAuthorizationServiceMismatch);
  }
  SasGrant grant;
  grant.account_sas = true;
  grant.permissions = *permissions;
  grant.resource_types = *types;
  if (auto ok = CheckTimeWindow(token.st, token.se, now); !ok) return tl::unexpected(ok.error());
  return grant;
}

Result<SasGrant> VerifyTableSas(const SasToken& token, std::string_view account,
                                const std::vector<HmacSha256Key>& keys, DateTime now,
                                const PolicyLookup& lookup) {
  if (token.sv < kMinTableSasVersion) {
    return AuthFailed("Table SAS requires signed version (sv) 2012-02-12 or later");
  }
  if (token.tn.empty()) return AuthFailed("tn is mandatory. Cannot be empty");
  // Azure: spec §10.8 — a RowKey bound needs its PartitionKey bound.
  if (!token.srk.empty() && token.spk.empty())
    return AuthFailed("spk is required when srk is provided");
  if (!token.erk.empty() && token.epk.empty())
    return AuthFailed("epk is required when erk is provided");
  if (auto ok = CheckSignature(keys, token.sig, TableSasStringToSign(account, token)); !ok) {
    return tl::unexpected(ok.error());
  }
  auto effective = MergePolicy(token, account, lookup);
  if (!effective) return tl::unexpected(effective.error());
  if (effective->se.empty()) {
    return AuthFailed("Signed expiry must be specified in signature or SAS identifier");
  }
  if (effective->sp.empty()) {
    return AuthFailed("Signed permission must be specified in signature or SAS identifier");
  }
  auto permissions = ParseSasPermissions(effective->sp, false);
  if (!permissions) {
    return AuthFailed("Invalid signed permissions (sp): '" + effective->sp + "'");
  }
  SasGrant grant;
  grant.permissions = *permissions;
  grant.table = std::string(token.tn);
  grant.range = SasKeyRange(token);
  if (auto ok = CheckTimeWindow(effective->st, effective->se, now); !ok) {
    return tl::unexpected(ok.error());
  }
  return grant;
}

}  // namespace

std::optional<std::uint16_t> ParseSasPermissions(std::string_view text, bool account) {
  std::uint16_t bits = 0;
  for (char c : text) {
    switch (c) {
      case 'r':
        bits |= kSasRead;
        break;
      case 'a':
        bits |= kSasAdd;
        break;
      case 'u':
        bits |= kSasUpdate;
        break;
      case 'd':
        bits |= kSasDelete;
        break;
      default:
        if (!account) return std::nullopt;
        if (c == 'w')
          bits |= kSasWrite;
        else if (c == 'l')
          bits |= kSasList;
        else if (c == 'c')
          bits |= kSasCreate;
        else if (c == 'p')
          bits |= kSasProcess;
        else if (std::string_view("tfixy").find(c) == std::string_view::npos)
          return std::nullopt;
    }
  }
  return bits;
}

SasToken ParseSasToken(const QueryParams& query) {
  SasToken t;
  for (const auto& [name, value] : query.items) {
    const std::string_view v = value;
    if (name == "sv")
      t.sv = v;
    else if (name == "ss")
      t.ss = v, t.has_ss = true;
    else if (name == "srt")
      t.srt = v, t.has_srt = true;
    else if (name == "sp")
      t.sp = v;
    else if (name == "st")
      t.st = v;
    else if (name == "se")
      t.se = v;
    else if (name == "sip")
      t.sip = v;
    else if (name == "spr")
      t.spr = v;
    else if (name == "ses")
      t.ses = v;
    else if (name == "sig")
      t.sig = v;
    else if (name == "tn")
      t.tn = v, t.has_tn = true;
    else if (name == "si")
      t.si = v;
    else if (name == "spk")
      t.spk = v;
    else if (name == "srk")
      t.srk = v;
    else if (name == "epk")
      t.epk = v;
    else if (name == "erk")
      t.erk = v;
  }
  return t;
}

std::string AccountSasStringToSign(std::string_view account, const SasToken& t) {
  std::string out;
  for (std::string_view field : {account, t.sp, t.ss, t.srt, t.st, t.se, t.sip, t.spr, t.sv}) {
    out.append(field);
    out.push_back('\n');
  }
  if (t.sv >= kEncryptionScopeVersion) {
    out.append(t.ses);
    out.push_back('\n');
  }
  return out;
}

std::string TableSasStringToSign(std::string_view account, const SasToken& t) {
  std::string resource = t.sv >= kTableResourcePrefixVersion ? "/table/" : "/";
  resource.append(account);
  resource.push_back('/');
  resource.append(AsciiLower(t.tn));
  std::vector<std::string_view> fields = {t.sp, t.st, t.se, resource, t.si};
  if (t.sv >= kIpProtocolVersion) {
    fields.push_back(t.sip);
    fields.push_back(t.spr);
  }
  for (std::string_view field : {t.sv, t.spk, t.srk, t.epk, t.erk}) fields.push_back(field);
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out.push_back('\n');
    out.append(fields[i]);
  }
  return out;
}

Result<SasGrant> VerifySas(const SasToken& token, std::string_view account,
                           const std::vector<HmacSha256Key>& keys, const Request& request,
                           DateTime now, const PolicyLookup& lookup) {
  if (token.sv.empty()) return AuthFailed("sv is mandatory. Cannot be empty");
  if (!WellFormedVersion(token.sv)) {
    return AuthFailed("Signed version (sv) '" + std::string(token.sv) + "' is not valid");
  }
  if (!token.IsTableSas() && !token.has_ss && !token.has_srt) {
    return AuthFailed(
        "The SAS names neither a table (tn) nor services and resource types (ss, srt)");
  }
  auto grant = token.IsTableSas() ? VerifyTableSas(token, account, keys, now, lookup)
                                  : VerifyAccountSas(token, account, keys, now);
  if (!grant) return grant;
  grant->version = std::string(token.sv);
  if (!token.sip.empty()) {
    if (auto ok = CheckSourceIp(token.sip, request.remote_address); !ok) {
      return tl::unexpected(ok.error());
    }
  }
  if (auto ok = CheckProtocol(token.spr, request.secure); !ok) return tl::unexpected(ok.error());
  return grant;
}

}  // namespace malachite::server
