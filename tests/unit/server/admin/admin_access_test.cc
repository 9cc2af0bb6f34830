#include "server/admin/admin_access.h"

#include <catch2/catch.hpp>

#include "common/datetime.h"
#include "common/encoding.h"
#include "server/admin/admin_endpoints.h"
#include "server/auth/shared_key.h"

namespace malachite::server {
namespace {

const DateTime kNow = *ParseRfc1123("Mon, 04 May 2026 10:00:00 GMT");

std::vector<AccountConfig> Accounts() {
  return {{std::string(kDevAccountName), std::string(kDevAccountKey), {}},
          {"second", Base64Encode("second-key"), Base64Encode("second-key-2")}};
}

Request AdminRequest(std::string target, std::string remote, std::vector<Header> headers = {}) {
  Request request;
  request.method = "GET";
  request.target = std::move(target);
  request.remote_address = std::move(remote);
  request.headers = std::move(headers);
  return request;
}

// Signs `request` with Shared Key as a script would: the Table service's string-to-sign with
// CanonicalizedResource "/<account><path>".
void SignSharedKey(Request& request, std::string_view account, std::string_view base64_key,
                   std::string_view date) {
  request.headers.push_back({"x-ms-date", std::string(date)});
  Route route;
  route.account = std::string(account);
  route.raw_path = request.target.substr(0, request.target.find('?'));
  const std::string signature =
      ComputeSignature(*Base64Decode(base64_key), SharedKeyStringToSign(request, route)).value();
  request.headers.push_back(
      {"Authorization", "SharedKey " + std::string(account) + ":" + signature});
}

// "<status> [WWW-Authenticate values]" of the access decision, or "admitted".
std::string Decide(const AdminAccess& access, const Request& request) {
  Response response;
  if (access.Admit(request, response)) return "admitted";
  std::string out = std::to_string(response.status);
  for (const Header& header : response.headers) {
    if (header.name == "WWW-Authenticate") out += " [" + header.value + "]";
  }
  return out;
}

}  // namespace

TEST_CASE("admin_access: loopback addresses, v4, v6 and v4-mapped, empty means in-process",
          "[admin]") {
  CHECK(IsLoopbackAddress("127.0.0.1"));
  CHECK(IsLoopbackAddress("127.3.2.1"));
  CHECK(IsLoopbackAddress("::1"));
  CHECK(IsLoopbackAddress("::ffff:127.0.0.1"));
  CHECK(IsLoopbackAddress(""));
  CHECK_FALSE(IsLoopbackAddress("10.0.0.1"));
  CHECK_FALSE(IsLoopbackAddress("198.18.0.1"));
  CHECK_FALSE(IsLoopbackAddress("128.0.0.1"));
  CHECK_FALSE(IsLoopbackAddress("::ffff:10.0.0.1"));
  CHECK_FALSE(IsLoopbackAddress("fe80::1"));
  CHECK_FALSE(IsLoopbackAddress("unknown"));
}

TEST_CASE("admin_access: a non-loopback client needs an account's credentials", "[admin]") {
  ManualClock clock(kNow);
  const AdminAccess access(Accounts(), false, clock);
  CHECK(Decide(access, AdminRequest("/-/metrics", "127.0.0.1")) == "admitted");
  CHECK(Decide(access, AdminRequest("/-/metrics", "::1")) == "admitted");
  CHECK(Decide(access, AdminRequest("/-/metrics", "198.18.0.2")) ==
        "401 [Basic realm=\"Malachite admin\", charset=\"UTF-8\"] [Bearer realm=\"Malachite "
        "admin\"]");

  // Bearer: any account's key1 or key2, as written in connection strings.
  CHECK(Decide(access, AdminRequest("/-/faults", "198.18.0.2",
                                    {{"Authorization",
                                      "Bearer " + std::string(kDevAccountKey)}})) == "admitted");
  CHECK(Decide(access, AdminRequest("/-/faults", "198.18.0.2",
                                    {{"Authorization",
                                      "Bearer " + Base64Encode("second-key-2")}})) == "admitted");
  CHECK(Decide(access, AdminRequest("/-/faults", "198.18.0.2",
                                    {{"Authorization", "Bearer " + Base64Encode("guess")}})) ==
        "403");
  CHECK(Decide(access, AdminRequest("/-/faults", "198.18.0.2", {{"Authorization", "Bearer"}})) ==
        "403");

  // Basic: the account name must go with its own key.
  CHECK(Decide(access,
               AdminRequest("/-/partitions", "198.18.0.2",
                            {{"Authorization",
                              "Basic " + Base64Encode("second:" + Base64Encode("second-key"))}})) ==
        "admitted");
  CHECK(Decide(access, AdminRequest(
                           "/-/partitions", "198.18.0.2",
                           {{"Authorization",
                             "Basic " + Base64Encode("second:" + std::string(kDevAccountKey))}})) ==
        "403");
  CHECK(Decide(access, AdminRequest("/-/partitions", "198.18.0.2",
                                    {{"Authorization", "Basic !!notbase64"}})) == "403");
}

TEST_CASE("admin_access: a browser page of another site or a rebound name gets no loopback pass",
          "[admin]") {
  ManualClock clock(kNow);
  const AdminAccess access(Accounts(), false, clock);
  auto post = [](std::vector<Header> headers) {
    Request request = AdminRequest("/-/reset", "127.0.0.1", std::move(headers));
    request.method = "POST";
    return request;
  };
  // Scripts and SDKs name no Origin: the loopback rule as before.
  CHECK(Decide(access, post({{"Host", "127.0.0.1:10002"}})) == "admitted");
  // The explorer page itself: same origin, loopback name.
  CHECK(Decide(access, post({{"Host", "127.0.0.1:10002"},
                             {"Origin", "http://127.0.0.1:10002"},
                             {"Sec-Fetch-Site", "same-origin"}})) == "admitted");
  CHECK(Decide(access, post({{"Host", "localhost:10002"}, {"Origin", "http://localhost:10002"}})) ==
        "admitted");
  CHECK(Decide(access, post({{"Host", "[::1]:10002"}, {"Origin", "http://[::1]:10002"}})) ==
        "admitted");
  CHECK(Decide(access, AdminRequest("/-/metrics", "127.0.0.1",
                                    {{"Host", "devstoreaccount1.localhost:10002"},
                                     {"Sec-Fetch-Site", "none"}})) == "admitted");
  // Another site's page: a "simple" POST needs no preflight, so the Origin decides.
  CHECK(Decide(access, post({{"Host", "127.0.0.1:10002"}, {"Origin", "https://evil.example"}})) ==
        "403");
  CHECK(Decide(access, post({{"Host", "127.0.0.1:10002"}, {"Origin", "http://localhost:3000"}})) ==
        "403");
  CHECK(Decide(access, AdminRequest("/-/metrics", "127.0.0.1",
                                    {{"Host", "127.0.0.1:10002"},
                                     {"Sec-Fetch-Site", "cross-site"}})) == "403");
  // DNS rebinding: the page is same-origin with a name that now points at 127.0.0.1.
  CHECK(Decide(access, post({{"Host", "evil.example:10002"},
                             {"Origin", "http://evil.example:10002"}})) == "403");
  CHECK(Decide(access, AdminRequest("/-/partitions", "127.0.0.1",
                                    {{"Host", "evil.example:10002"},
                                     {"Sec-Fetch-Site", "same-origin"}})) == "403");
  // With an account's credentials the page may (it had to know the key).
  CHECK(Decide(access, post({{"Host", "evil.example:10002"},
                             {"Origin", "http://evil.example:10002"},
                             {"Authorization", "Bearer " + std::string(kDevAccountKey)}})) ==
        "admitted");
  // --admin-open opens it all.
  const AdminAccess open(Accounts(), true, clock);
  CHECK(Decide(open, post({{"Host", "127.0.0.1:10002"}, {"Origin", "https://evil.example"}})) ==
        "admitted");
}

TEST_CASE("admin_access: Shared Key over the admin path, with the date rule of the Table service",
          "[admin]") {
  ManualClock clock(kNow);
  const AdminAccess access(Accounts(), false, clock);
  Request signed_request = AdminRequest("/-/metrics?format=text", "198.18.0.2");
  SignSharedKey(signed_request, kDevAccountName, kDevAccountKey, FormatRfc1123(kNow));
  CHECK(Decide(access, signed_request) == "admitted");

  Request other_account = AdminRequest("/-/metrics", "198.18.0.2");
  SignSharedKey(other_account, "second", Base64Encode("second-key"), FormatRfc1123(kNow));
  CHECK(Decide(access, other_account) == "admitted");

  Request wrong_key = AdminRequest("/-/metrics", "198.18.0.2");
  SignSharedKey(wrong_key, kDevAccountName, Base64Encode("not the key"), FormatRfc1123(kNow));
  CHECK(Decide(access, wrong_key) == "403");

  // Signed for another path: replaying a signature of /-/metrics on /-/faults fails.
  Request replayed = AdminRequest("/-/metrics", "198.18.0.2");
  SignSharedKey(replayed, kDevAccountName, kDevAccountKey, FormatRfc1123(kNow));
  replayed.target = "/-/faults";
  CHECK(Decide(access, replayed) == "403");

  Request stale = AdminRequest("/-/metrics", "198.18.0.2");
  SignSharedKey(stale, kDevAccountName, kDevAccountKey,
                FormatRfc1123(DateTime{kNow.ticks - 20 * 60 * kTicksPerSecond}));
  CHECK(Decide(access, stale) == "403");
}

TEST_CASE("admin_access: --admin-open (and --loose) admits everyone", "[admin]") {
  ManualClock clock(kNow);
  CHECK(Decide(AdminAccess(Accounts(), true, clock), AdminRequest("/-/faults", "198.18.0.2")) ==
        "admitted");
  ServerConfig loose;
  loose.loose = true;
  CHECK(Decide(AdminAccess::ForConfig(loose, clock), AdminRequest("/-/faults", "198.18.0.2")) ==
        "admitted");
  ServerConfig closed;
  CHECK(Decide(AdminAccess::ForConfig(closed, clock), AdminRequest("/-/faults", "198.18.0.2")) ==
        "401 [Basic realm=\"Malachite admin\", charset=\"UTF-8\"] [Bearer realm=\"Malachite "
        "admin\"]");
}

TEST_CASE("admin_endpoints: every /-/ path but the health probes is behind the access rule",
          "[admin]") {
  ManualClock clock(kNow);
  const AdminAccess access(Accounts(), false, clock);
  AdminContext context{true};
  context.access = &access;
  for (std::string path : {"/-/metrics", "/-/partitions", "/-/faults", "/-/faults/1", "/-/reset",
                           "/-/backup", "/-/explorer", "/-/anything", "/-"}) {
    Response response;
    Request request = AdminRequest(path, "198.18.0.2");
    HandleAdminRequest(request, context, response);
    INFO(path);
    CHECK(response.status == 401);
  }
  for (std::string path : {"/-/healthy", "/-/ready"}) {
    Response response;
    Request request = AdminRequest(path, "198.18.0.2");
    HandleAdminRequest(request, context, response);
    INFO(path);
    CHECK(response.status == 200);
  }
  // Without an AdminAccess only loopback (and in-process) clients get through.
  Response response;
  Request request = AdminRequest("/-/metrics", "198.18.0.2");
  HandleAdminRequest(request, AdminContext{true}, response);
  CHECK(response.status == 403);
}

}  // namespace malachite::server
