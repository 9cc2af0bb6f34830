// Bearer tokens and host-style URLs through the whole pipeline (Service::Handle + the store's
// writer + Complete) over a real store in a temp dir: the answers by x-ms-version, the role
// split, $batch, and what cannot be combined (spec §1.1, §10.9).

#include <catch2/catch.hpp>

#include "common/datetime.h"
#include "server/http/router.h"
#include "server/pipeline/service.h"
#include "tests/unit/server/service_harness.h"
#include "tests/unit/server/test_tokens.h"

namespace malachite::server {
namespace {

const DateTime kStart = *ParseIso8601("2026-11-21T05:21:46Z");
constexpr std::string_view kTenant = "72f988bf-86f1-41af-91ab-2d7cd011db47";
constexpr std::string_view kOldVersion = "2019-02-02";  // what the SDKs send
constexpr std::string_view kChallengeVersion = "2020-12-06";

class OAuthFixture {
 public:
  explicit OAuthFixture(bool oauth = true) : harness_(kStart, "malachite-oauth", Config(oauth)) {}

  // A token of principal `oid` (unsigned: no issuer keys here), with `aud`.
  std::string Token(std::string_view oid, std::string_view aud = "https://storage.azure.com") {
    const std::int64_t now = (harness_.clock().Now().ticks - kUnixEpochTicks) / kTicksPerSecond;
    return testing::UnsignedToken(
        R"({"aud":")" + std::string(aud) + R"(","iss":"https://sts.windows.net/)" +
        std::string(kTenant) + R"(/","nbf":)" + std::to_string(now - 60) + R"(,"exp":)" +
        std::to_string(now + 3600) + R"(,"oid":")" + std::string(oid) + R"("})");
  }

  // One request over HTTPS with `authorization` (none when empty) at `version`.
  Response Run(std::string method, std::string target, std::string authorization,
               std::string body = {}, std::string_view version = kOldVersion,
               std::vector<Header> headers = {}) {
    exchange_.Reset();
    Request& request = exchange_.request;
    request.secure = true;
    request.method = std::move(method);
    request.target = std::move(target);
    request.body = std::move(body);
    request.headers = std::move(headers);
    if (!request.Find("Host")) request.headers.push_back({"Host", "127.0.0.1:10002"});
    request.headers.push_back({"x-ms-version", std::string(version)});
    request.headers.push_back({"x-ms-date", FormatRfc1123(harness_.clock().Now())});
    if (!request.Find("Accept")) {
      request.headers.push_back({"Accept", "application/json;odata=minimalmetadata"});
    }
    if (!request.Find("Content-Type")) {
      request.headers.push_back({"Content-Type", "application/json"});
    }
    if (!authorization.empty()) request.headers.push_back({"Authorization", authorization});
    harness_.Run(exchange_);
    return exchange_.response;
  }
  Response Bearer(std::string method, std::string target, std::string_view oid,
                  std::string body = {}, std::vector<Header> headers = {}) {
    return Run(std::move(method), std::move(target), "Bearer " + Token(oid), std::move(body),
               kOldVersion, std::move(headers));
  }

 private:
  static ServerConfig Config(bool oauth) {
    ServerConfig config;
    config.oauth.enabled = oauth;
    config.oauth.tenant = std::string(kTenant);
    config.oauth.roles = *ParseRoleAssignments(
        "--oauth-roles", "reader=reader; admin=account-contributor; *=contributor");
    return config;
  }

  testing::ServiceHarness harness_;
  Exchange exchange_;
};

// "<status> <x-ms-error-code or ok>".
std::string Answer(const Response& response) {
  return std::to_string(response.status) + " " +
         std::string(response.Find("x-ms-error-code").value_or("ok"));
}

std::string HeaderOf(const Response& response, std::string_view name) {
  return std::string(response.Find(name).value_or("<none>"));
}

constexpr std::string_view kChallenge =
    "Bearer authorization_uri=https://login.microsoftonline.com/"
    "72f988bf-86f1-41af-91ab-2d7cd011db47/oauth2/authorize resource_id=https://storage.azure.com";

}  // namespace

TEST_CASE("oauth service: a contributor token creates, writes and reads, a reader only reads",
          "[oauth]") {
  OAuthFixture f;
  CHECK(Answer(f.Bearer("POST", "/devstoreaccount1/Tables", "writer",
                        R"({"TableName":"orders"})")) == "201 ok");
  CHECK(Answer(f.Bearer("POST", "/devstoreaccount1/orders", "writer",
                        R"({"PartitionKey":"p","RowKey":"r","n":1})")) == "201 ok");
  CHECK(Answer(f.Bearer("GET", "/devstoreaccount1/orders(PartitionKey='p',RowKey='r')",
                        "reader")) == "200 ok");
  CHECK(Answer(f.Bearer("GET", "/devstoreaccount1/Tables", "reader")) == "200 ok");
  for (auto [method, target] : std::vector<std::pair<std::string, std::string>>{
           {"POST", "/devstoreaccount1/orders"},
           {"PUT", "/devstoreaccount1/orders(PartitionKey='p',RowKey='r')"},
           {"MERGE", "/devstoreaccount1/orders(PartitionKey='p',RowKey='r')"},
           {"DELETE", "/devstoreaccount1/Tables('orders')"},
           {"POST", "/devstoreaccount1/Tables"}}) {
    INFO(method << " " << target);
    const Response refused =
        f.Bearer(method, target, "reader", R"({"PartitionKey":"p","RowKey":"r2"})");
    CHECK(Answer(refused) == "403 AuthorizationPermissionMismatch");
    CHECK(refused.body.find("This request is not authorized to perform this operation using "
                            "this permission.") != std::string::npos);
  }
  // Nothing of the refused writes happened.
  CHECK(Answer(f.Bearer("GET", "/devstoreaccount1/orders(PartitionKey='p',RowKey='r2')",
                        "reader")) == "404 ResourceNotFound");
}

TEST_CASE("oauth service: ACL and service properties need a control-plane role", "[oauth]") {
  OAuthFixture f;
  CHECK(Answer(f.Bearer("POST", "/devstoreaccount1/Tables", "writer", R"({"TableName":"acl1"})")) ==
        "201 ok");
  for (std::string target :
       {"/devstoreaccount1/acl1?comp=acl", "/devstoreaccount1/?restype=service&comp=properties"}) {
    INFO(target);
    const std::vector<Header> xml = {{"Accept", "application/xml"}};
    CHECK(Answer(f.Bearer("GET", target, "writer", {}, xml)) ==
          "403 AuthorizationPermissionMismatch");
    CHECK(Answer(f.Bearer("GET", target, "reader", {}, xml)) ==
          "403 AuthorizationPermissionMismatch");
    CHECK(Answer(f.Bearer("GET", target, "admin", {}, xml)) == "200 ok");
  }
  // Storage Account Contributor holds no data actions.
  CHECK(Answer(f.Bearer("GET", "/devstoreaccount1/acl1()", "admin")) ==
        "403 AuthorizationPermissionMismatch");
}

TEST_CASE("oauth service: a rejected token is 401 with the challenge from 2020-12-06, 403 before",
          "[oauth]") {
  OAuthFixture f;
  const std::string wrong_audience = "Bearer " + f.Token("writer", "https://vault.azure.net");
  const Response old = f.Run("GET", "/devstoreaccount1/Tables", wrong_audience);
  CHECK(Answer(old) == "403 AuthenticationFailed");
  CHECK(HeaderOf(old, "WWW-Authenticate") == "<none>");
  const Response challenged = f.Run("GET", "/devstoreaccount1/Tables", wrong_audience, {},
                                    kChallengeVersion, {{"Accept", "application/xml"}});
  CHECK(Answer(challenged) == "401 InvalidAuthenticationInfo");
  CHECK(HeaderOf(challenged, "WWW-Authenticate") == kChallenge);
  CHECK(challenged.body.find("<Message>Server failed to authenticate the request. Please refer "
                             "to the information in the www-authenticate header.") !=
        std::string::npos);
  CHECK(challenged.body.find("<AuthenticationErrorDetail>Audience validation failed. Audience "
                             "did not match.</AuthenticationErrorDetail>") != std::string::npos);
  // A token that is not a JWT, and one of another tenant.
  CHECK(Answer(f.Run("GET", "/devstoreaccount1/Tables", "Bearer abc", {}, kChallengeVersion)) ==
        "401 InvalidAuthenticationInfo");
  CHECK(Answer(f.Run("GET", "/devstoreaccount1/Tables", "Bearer abc")) ==
        "403 AuthenticationFailed");
  // An empty token is a malformed header.
  CHECK(Answer(f.Run("GET", "/devstoreaccount1/Tables", "Bearer ", {}, kChallengeVersion)) ==
        "400 InvalidAuthenticationInfo");
}

TEST_CASE(
    "oauth service: a token for Azure Storage's application ID is accepted, one for an account "
    "the server does not have is 403 AuthenticationFailed at every version",
    "[oauth]") {
  OAuthFixture f;
  // Azure: spec §10.9 — a v2.0 access token names the application, not the resource URL.
  const std::string app = "Bearer " + f.Token("writer", "e406a681-f3d4-42a8-90b6-c2b029497af1");
  CHECK(Answer(f.Run("POST", "/devstoreaccount1/Tables", app, R"({"TableName":"byapp"})")) ==
        "201 ok");
  // Emulator: spec §10.1 — no account, no key or role to check: the answer of a bad credential.
  for (std::string_view version : {kOldVersion, kChallengeVersion}) {
    const Response unknown = f.Run("GET", "/nosuchaccount/Tables", app, {}, version);
    CHECK(Answer(unknown) == "403 AuthenticationFailed");
    CHECK(HeaderOf(unknown, "WWW-Authenticate") == "<none>");
  }
}

TEST_CASE(
    "oauth service: tokens for the China and US Government clouds' storage work, a foreign "
    "audience is refused as before",
    "[oauth]") {
  OAuthFixture f;
  for (std::string_view aud : {"https://storage.azure.cn", "https://storage.azure.us/",
                               "https://storage.usgovcloudapi.net",
                               "https://devstoreaccount1.table.core.chinacloudapi.cn"}) {
    INFO(aud);
    CHECK(Answer(f.Run("GET", "/devstoreaccount1/Tables", "Bearer " + f.Token("writer", aud))) ==
          "200 ok");
  }
  const std::string foreign = "Bearer " + f.Token("writer", "https://storage.chinacloudapi.cn");
  CHECK(Answer(f.Run("GET", "/devstoreaccount1/Tables", foreign)) == "403 AuthenticationFailed");
  const Response challenged = f.Run("GET", "/devstoreaccount1/Tables", foreign, {},
                                    kChallengeVersion, {{"Accept", "application/xml"}});
  CHECK(Answer(challenged) == "401 InvalidAuthenticationInfo");
  CHECK(HeaderOf(challenged, "WWW-Authenticate") == kChallenge);
  CHECK(challenged.body.find("<AuthenticationErrorDetail>Audience validation failed. Audience "
                             "did not match.</AuthenticationErrorDetail>") != std::string::npos);
}

TEST_CASE("oauth service: anonymous requests get the challenge at versions that know it",
          "[oauth]") {
  OAuthFixture f;
  const Response challenged = f.Run("GET", "/devstoreaccount1/Tables", "", {}, kChallengeVersion);
  CHECK(Answer(challenged) == "401 NoAuthenticationInformation");
  CHECK(HeaderOf(challenged, "WWW-Authenticate") == kChallenge);
  CHECK(Answer(f.Run("GET", "/devstoreaccount1/Tables", "")) == "403 AuthenticationFailed");
  // Without --oauth nothing changes: 403, no challenge.
  OAuthFixture plain(false);
  const Response refused = plain.Run("GET", "/devstoreaccount1/Tables", "", {}, kChallengeVersion);
  CHECK(Answer(refused) == "403 AuthenticationFailed");
  CHECK(HeaderOf(refused, "WWW-Authenticate") == "<none>");
  CHECK(Answer(plain.Run("GET", "/devstoreaccount1/Tables", "Bearer " + plain.Token("w"), {},
                         kChallengeVersion)) == "400 InvalidAuthenticationInfo");
}

TEST_CASE("oauth service: a token cannot ride with a SAS or a second Authorization header",
          "[oauth]") {
  OAuthFixture f;
  const std::string bearer = "Bearer " + f.Token("writer");
  CHECK(Answer(f.Run("GET", "/devstoreaccount1/Tables?sv=2019-02-02&ss=t&sig=abc", bearer)) ==
        "400 InvalidAuthenticationInfo");
  CHECK(Answer(f.Run("GET", "/devstoreaccount1/Tables", bearer, {}, kOldVersion,
                     {{"Authorization", "SharedKeyLite devstoreaccount1:abc="}})) ==
        "400 InvalidAuthenticationInfo");
}

TEST_CASE("oauth service: $batch operations are authorized one by one", "[oauth]") {
  OAuthFixture f;
  CHECK(Answer(f.Bearer("POST", "/devstoreaccount1/Tables", "writer",
                        R"({"TableName":"batch1"})")) == "201 ok");
  const std::string body =
      "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n"
      "--changeset_1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n"
      "\r\nPOST https://devstoreaccount1.localhost:10002/batch1 HTTP/1.1\r\n"
      "Content-Type: application/json\r\nAccept: application/json;odata=nometadata\r\n\r\n"
      R"({"PartitionKey":"p","RowKey":"r"})"
      "\r\n--changeset_1--\r\n\r\n--batch_1--\r\n";
  auto batch = [&](std::string_view oid) {
    return f.Run("POST", "/$batch", "Bearer " + f.Token(oid), body, kOldVersion,
                 {{"Host", "devstoreaccount1.localhost:10002"},
                  {"Content-Type", "multipart/mixed; boundary=batch_1"}});
  };
  const Response refused = batch("reader");
  CHECK(refused.status == 202);
  CHECK(refused.body.find("HTTP/1.1 403 Forbidden") != std::string::npos);
  CHECK(refused.body.find("AuthorizationPermissionMismatch") != std::string::npos);
  const Response done = batch("writer");
  CHECK(done.status == 202);
  CHECK(done.body.find("HTTP/1.1 201 Created") != std::string::npos);
  // The part's Location is host-style like the batch.
  CHECK(done.body.find("Location: https://devstoreaccount1.localhost:10002/batch1(PartitionKey="
                       "'p',RowKey='r')") != std::string::npos);
  CHECK(Answer(f.Bearer("GET", "/devstoreaccount1/batch1(PartitionKey='p',RowKey='r')",
                        "reader")) == "200 ok");
}

TEST_CASE("oauth service: host-style requests build links without the account segment",
          "[oauth][host-style]") {
  OAuthFixture f;
  const std::vector<Header> host = {{"Host", "devstoreaccount1.localhost:10002"}};
  const std::string bearer = "Bearer " + f.Token("writer");
  const Response created =
      f.Run("POST", "/Tables", bearer, R"({"TableName":"hosted"})", kOldVersion, host);
  CHECK(Answer(created) == "201 ok");
  CHECK(
      created.body.find(
          R"("odata.metadata":"https://devstoreaccount1.localhost:10002/$metadata#Tables/@Element")") !=
      std::string::npos);
  CHECK(HeaderOf(created, "Location") ==
        "https://devstoreaccount1.localhost:10002/Tables('hosted')");
  const Response inserted =
      f.Run("POST", "/hosted", bearer, R"({"PartitionKey":"p","RowKey":"r"})", kOldVersion, host);
  CHECK(HeaderOf(inserted, "Location") ==
        "https://devstoreaccount1.localhost:10002/hosted(PartitionKey='p',RowKey='r')");
  // The same table through path style on the same port.
  CHECK(Answer(f.Run("GET", "/devstoreaccount1/hosted(PartitionKey='p',RowKey='r')", bearer)) ==
        "200 ok");
  // A token for the host-style endpoint is an audience of it.
  CHECK(Answer(f.Run("GET", "/hosted()",
                     "Bearer " + f.Token("reader", "https://devstoreaccount1.localhost:10002/"), {},
                     kOldVersion, host)) == "200 ok");
}

}  // namespace malachite::server
