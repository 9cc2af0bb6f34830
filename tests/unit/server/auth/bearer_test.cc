// Entra ID bearer tokens (spec §10.9): the service's checks of signature, lifetime, audience and
// issuer, then roles. Tokens are minted here (test_tokens.h); jwt_test.cc and issuer_keys_test.cc
// test the decoding and the keys.
#include "server/auth/bearer.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <map>

#include "common/datetime.h"
#include "server/auth/issuer_keys.h"
#include "server/auth/jwt.h"
#include "tests/unit/server/test_tokens.h"

namespace malachite::server {
namespace {

using testing::CompactToken;
using testing::TestSigner;
using testing::UnsignedToken;

constexpr std::int64_t kNow = 1795000000;  // 2026-11-18T09:46:40Z
constexpr std::string_view kTenant = "72f988bf-86f1-41af-91ab-2d7cd011db47";

DateTime AtUnix(std::int64_t seconds) {
  return DateTime{kUnixEpochTicks + seconds * kTicksPerSecond};
}

// Claims as JSON: valid ones for devstoreaccount1, with members replaced by `changes` (raw JSON
// values; an empty value removes the member).
std::string Claims(const std::map<std::string, std::string>& changes = {}) {
  std::map<std::string, std::string> members = {
      {"aud", R"("https://storage.azure.com")"},
      {"iss", "\"https://sts.windows.net/" + std::string(kTenant) + "/\""},
      {"nbf", std::to_string(kNow - 60)},
      {"exp", std::to_string(kNow + 3600)},
      {"oid", R"("11111111-2222-3333-4444-555555555555")"},
      {"tid", "\"" + std::string(kTenant) + "\""},
  };
  for (const auto& [name, value] : changes) {
    if (value.empty()) {
      members.erase(name);
    } else {
      members[name] = value;
    }
  }
  std::string json = "{";
  for (const auto& [name, value] : members) json += "\"" + name + "\":" + value + ",";
  json.back() = '}';
  return json;
}

OAuthConfig Config(std::string tenant = {}, std::string keys_file = {}) {
  OAuthConfig config;
  config.enabled = true;
  config.tenant = std::move(tenant);
  config.issuer_keys_file = std::move(keys_file);
  return config;
}

// "ok <oid>" or the AuthenticationErrorDetail.
std::string Verify(const BearerVerifier& verifier, const std::string& token,
                   std::int64_t now = kNow, std::string_view endpoint = {}) {
  auto identity = verifier.Verify(token, "devstoreaccount1", endpoint, AtUnix(now));
  if (!identity) return identity.error().detail;
  return "ok " + identity->object_id;
}

std::string Verify(const std::string& token, std::int64_t now = kNow,
                   std::string_view endpoint = {}) {
  return Verify(**BearerVerifier::Create(Config()), token, now, endpoint);
}

}  // namespace

TEST_CASE(
    "bearer: audience is storage.azure.com (or Azure Storage's application ID) or the account's "
    "endpoint, with or without '/'",
    "[bearer]") {
  for (std::string aud :
       {R"("https://storage.azure.com")", R"("https://storage.azure.com/")",
        R"("e406a681-f3d4-42a8-90b6-c2b029497af1")", R"("E406A681-F3D4-42A8-90B6-C2B029497AF1")",
        R"("https://devstoreaccount1.table.core.windows.net")",
        R"("HTTPS://DEVSTOREACCOUNT1.TABLE.CORE.WINDOWS.NET/")",
        R"(["https://other.example","https://storage.azure.com"])"}) {
    INFO(aud);
    CHECK(Verify(UnsignedToken(Claims({{"aud", aud}}))) ==
          "ok 11111111-2222-3333-4444-555555555555");
  }
  const std::string endpoint = "https://devstoreaccount1.localhost:10002";
  CHECK(Verify(UnsignedToken(Claims({{"aud", "\"" + endpoint + "/\""}})), kNow, endpoint)
            .starts_with("ok"));
  for (std::string aud :
       {R"("https://storage.azure.com//")", R"("https://storage.azure.com/.default")",
        R"("e406a681-f3d4-42a8-90b6-c2b029497af1/")", R"("e406a681-f3d4-42a8-90b6-c2b029497af2")",
        R"("https://other.table.core.windows.net")", R"("https://management.azure.com")", R"([])",
        R"("")"}) {
    INFO(aud);
    CHECK(Verify(UnsignedToken(Claims({{"aud", aud}}))) ==
          "Audience validation failed. Audience did not match.");
  }
  CHECK(Verify(UnsignedToken(Claims({{"aud", ""}}))) ==
        "Audience validation failed. Audience did not match.");
  CHECK(Verify(UnsignedToken(Claims({{"aud", "\"" + endpoint + "\""}}))) ==
        "Audience validation failed. Audience did not match.");
}

TEST_CASE(
    "bearer: the sovereign clouds' storage audiences and account endpoints are accepted, their "
    "look-alikes are not",
    "[bearer]") {
  // Azure China and Azure US Government: the storage resource (the SDKs' TableAudience values,
  // and US Government's documented storage scope) and the account's Table endpoint there.
  for (std::string aud :
       {R"("https://storage.azure.cn")", R"("https://storage.azure.cn/")",
        R"("https://storage.azure.us")", R"("https://storage.azure.us/")",
        R"("https://storage.usgovcloudapi.net")", R"("https://storage.usgovcloudapi.net/")",
        R"("HTTPS://STORAGE.AZURE.CN")",
        R"("https://devstoreaccount1.table.core.chinacloudapi.cn")",
        R"("https://devstoreaccount1.table.core.chinacloudapi.cn/")",
        R"("https://devstoreaccount1.table.core.usgovcloudapi.net")",
        R"("https://devstoreaccount1.table.core.usgovcloudapi.net/")",
        R"(["https://vault.azure.cn","https://storage.azure.cn"])"}) {
    INFO(aud);
    CHECK(Verify(UnsignedToken(Claims({{"aud", aud}}))) ==
          "ok 11111111-2222-3333-4444-555555555555");
  }
  for (std::string aud :
       {R"("https://storage.azure.cn//")", R"("https://storage.azure.cn/.default")",
        R"("http://storage.azure.cn")", R"("https://storage.chinacloudapi.cn")",
        R"("https://storage.azure.de")", R"("https://storage.azure.us.example")",
        R"("https://cosmos.azure.cn")", R"("https://vault.usgovcloudapi.net")",
        R"("https://other.table.core.chinacloudapi.cn")",
        R"("https://devstoreaccount1.table.core.cloudapi.de")",
        R"("https://devstoreaccount1.blob.core.usgovcloudapi.net")",
        R"("https://devstoreaccount1.table.core.usgovcloudapi.net.example")",
        R"("https://xdevstoreaccount1.table.core.windows.net")", R"("https://devstoreaccount1")",
        R"("https://.table.core.windows.net")"}) {
    INFO(aud);
    CHECK(Verify(UnsignedToken(Claims({{"aud", aud}}))) ==
          "Audience validation failed. Audience did not match.");
  }
}

TEST_CASE("bearer: nbf and exp hold with five minutes of clock skew, exp is required", "[bearer]") {
  const std::string token =
      UnsignedToken(Claims({{"nbf", std::to_string(kNow)}, {"exp", std::to_string(kNow + 600)}}));
  CHECK(Verify(token, kNow - 300).starts_with("ok"));
  CHECK(Verify(token, kNow - 301) == "Lifetime validation failed. The token is not yet valid.");
  CHECK(Verify(token, kNow + 600 + 300).starts_with("ok"));
  CHECK(Verify(token, kNow + 600 + 301) == "Lifetime validation failed. The token is expired.");
  CHECK(Verify(UnsignedToken(Claims({{"exp", ""}}))) ==
        "Lifetime validation failed. The token is missing an Expiration Time.");
  CHECK(Verify(UnsignedToken(Claims({{"nbf", ""}}))).starts_with("ok"));
}

TEST_CASE("bearer: the issuer is an Entra ID issuer of the configured tenant", "[bearer]") {
  for (std::string iss : {"https://sts.windows.net/" + std::string(kTenant) + "/",
                          "https://login.microsoftonline.com/" + std::string(kTenant) + "/v2.0",
                          "https://login.microsoftonline.us/" + std::string(kTenant) + "/v2.0",
                          "https://sts.chinacloudapi.cn/" + std::string(kTenant) + "/"}) {
    INFO(iss);
    CHECK(Verify(UnsignedToken(Claims({{"iss", "\"" + iss + "\""}}))).starts_with("ok"));
  }
  for (std::string iss : {std::string("https://sts.windows.net/common/"),
                          "https://sts.windows.net/" + std::string(kTenant),
                          "https://login.microsoftonline.com/" + std::string(kTenant) + "/",
                          "https://evil.example/" + std::string(kTenant) + "/",
                          std::string("https://sts.windows.net//")}) {
    INFO(iss);
    CHECK(Verify(UnsignedToken(Claims({{"iss", "\"" + iss + "\""}}))) ==
          "Issuer validation failed. Issuer did not match.");
  }
  auto pinned = *BearerVerifier::Create(Config("00000000-0000-0000-0000-0000000000aa"));
  CHECK(Verify(*pinned, UnsignedToken(Claims())) ==
        "Issuer validation failed. Issuer did not match.");
  CHECK(
      Verify(*pinned,
             UnsignedToken(Claims(
                 {{"iss", R"("https://sts.windows.net/00000000-0000-0000-0000-0000000000AA/")"}})))
          .starts_with("ok"));
  CHECK(pinned->challenge() ==
        "Bearer authorization_uri=https://login.microsoftonline.com/"
        "00000000-0000-0000-0000-0000000000aa/oauth2/authorize "
        "resource_id=https://storage.azure.com");
  CHECK((*BearerVerifier::Create(Config()))->challenge() ==
        "Bearer authorization_uri=https://login.microsoftonline.com/common/oauth2/authorize "
        "resource_id=https://storage.azure.com");
}

TEST_CASE("bearer: with issuer keys the signature is checked first, without, it is not",
          "[bearer]") {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("malachite-jwks-" + std::to_string(::getpid()) + ".json"))
                               .string();
  {
    std::FILE* file = std::fopen(path.c_str(), "w");
    REQUIRE(file != nullptr);
    const std::string jwks = R"({"keys":[)" + TestSigner::Rsa().Jwk("r1") + "]}";
    std::fwrite(jwks.data(), 1, jwks.size(), file);
    std::fclose(file);
  }
  auto verifying = *BearerVerifier::Create(Config({}, path));
  std::remove(path.c_str());
  CHECK(verifying->verifies_signatures());
  CHECK_FALSE((*BearerVerifier::Create(Config()))->verifies_signatures());
  const std::string good = TestSigner::Rsa().Sign("r1", Claims());
  CHECK(Verify(*verifying, good).starts_with("ok"));
  // A verified signature is remembered; the token's lifetime is still checked every time.
  CHECK(Verify(*verifying, good).starts_with("ok"));
  CHECK(Verify(*verifying, good, kNow + 7200) ==
        "Lifetime validation failed. The token is expired.");
  // A bad signature wins over an expired token: it is checked first.
  CHECK(Verify(*verifying, UnsignedToken(Claims({{"exp", "1"}}))) ==
        "Signature validation failed. No issuer key matches kid 'unverified'.");
  CHECK(Verify(*verifying, CompactToken(R"({"alg":"none"})", Claims(), "")) ==
        "Signature validation failed. Algorithm 'none' is not supported (RS256, ES256).");
  std::string forged = TestSigner::Rsa().Sign("r1", Claims());
  forged.replace(forged.find('.') + 1, forged.rfind('.') - forged.find('.') - 1,
                 Base64UrlEncode(Claims({{"oid", R"("admin")"}})));
  CHECK(Verify(*verifying, forged) ==
        "Signature validation failed. The signature does not verify with the issuer key.");
  CHECK(Verify(*verifying, "not-a-jwt") == "The bearer token is not a well-formed JWT.");
  CHECK(BearerVerifier::Create(Config({}, "/nonexistent.json")).error().message ==
        "cannot read issuer keys file '/nonexistent.json'");
}

TEST_CASE("bearer: a principal's roles come from its oid, else '*', else none", "[bearer]") {
  OAuthConfig config = Config();
  config.roles = *ParseRoleAssignments("--oauth-roles", "reader-oid=reader; *=contributor");
  auto verifier = *BearerVerifier::Create(config);
  auto actions = [&](std::string oid) {
    return verifier
        ->Verify(UnsignedToken(Claims({{"oid", oid}})), "devstoreaccount1", {}, AtUnix(kNow))
        ->actions;
  };
  CHECK(actions(R"("reader-oid")") == FindBuiltInRole("reader")->actions);
  CHECK(actions(R"("someone")") == FindBuiltInRole("contributor")->actions);
  CHECK(actions("") == FindBuiltInRole("contributor")->actions);  // no oid: only '*' matches
  config.roles = *ParseRoleAssignments("--oauth-roles", "reader-oid=reader");
  verifier = *BearerVerifier::Create(config);
  CHECK(actions(R"("someone")") == 0);
}

TEST_CASE("bearer: which built-in role may call which operation", "[bearer]") {
  // Azure: spec §10.9 — the permissions table of "Authorize with Microsoft Entra ID" against the
  // actions of the three roles.
  std::string dump;
  for (std::size_t i = 0; i < kOperationCount; ++i) {
    const auto op = static_cast<Operation>(i);
    if (op == Operation::kPreflight) continue;
    dump += std::string(OperationName(op)) + ":";
    for (const BuiltInRole& role : BuiltInRoles()) {
      if (AuthorizeBearerOperation(role.actions, op)) dump += " " + std::string(role.short_name);
    }
    dump += "\n";
  }
  CHECK(dump ==
        "QueryTables: reader contributor account-contributor\n"
        "GetTable: reader contributor account-contributor\n"
        "CreateTable: contributor account-contributor\n"
        "DeleteTable: contributor account-contributor\n"
        "QueryEntities: reader contributor\n"
        "GetEntity: reader contributor\n"
        "InsertEntity: contributor\n"
        "UpdateEntity: contributor\n"
        "MergeEntity: contributor\n"
        "InsertOrReplaceEntity: contributor\n"
        "InsertOrMergeEntity: contributor\n"
        "DeleteEntity: contributor\n"
        "GetTableACL: account-contributor\n"
        "SetTableACL: account-contributor\n"
        "GetTableServiceProperties: account-contributor\n"
        "SetTableServiceProperties: account-contributor\n"
        "GetTableServiceStats: account-contributor\n"
        "EntityGroupTransaction: reader contributor account-contributor\n");
  CHECK(AuthorizeBearerOperation(0, Operation::kGetEntity).error().code ==
        ErrorCode::kAuthorizationPermissionMismatch);
}

}  // namespace malachite::server
