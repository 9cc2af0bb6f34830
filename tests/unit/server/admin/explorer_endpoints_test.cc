// The explorer's paths through the admin dispatcher: embedded files, the server info, the rewrite
// of Table API calls and who may make them.
#include <catch2/catch.hpp>

#include "common/encoding.h"
#include "server/admin/admin_access.h"
#include "server/admin/admin_endpoints.h"
#include "server/pipeline/service.h"
#include "tests/unit/server/service_harness.h"

namespace malachite::server {
namespace {

class Fixture {
 public:
  Fixture()
      : host_(DateTime{638000000000000000}, "malachite-explorer", testing::UnthrottledConfig()) {}

  // Runs `method target` through the dispatcher; "<status> <Content-Type>" (or "table api
  // <rewritten target>"). With x-ms-version and Host, as the page sends them.
  std::string Answer(std::string method, std::string target, std::string body = {},
                     std::vector<Header> headers = {{"x-ms-version", "2019-02-02"},
                                                    {"Host", "127.0.0.1:10002"}}) {
    request_ = Request{};
    request_.method = std::move(method);
    request_.target = std::move(target);
    request_.body = std::move(body);
    request_.headers = std::move(headers);
    response_ = Response{};
    const AdminContext context{true, &host_.service().traffic(), nullptr,
                               &host_.service().insight()};
    if (HandleAdminRequest(request_, context, response_) == AdminAnswer::kTableApi) {
      return "table api " + request_.target;
    }
    return std::to_string(response_.status) + " " +
           std::string(response_.Find("Content-Type").value_or(""));
  }

  const Response& response() const { return response_; }

 private:
  testing::ServiceHarness host_;
  Request request_;
  Response response_;
};

}  // namespace

TEST_CASE("explorer: the page and its files are served from the executable", "[explorer]") {
  Fixture f;
  CHECK(f.Answer("GET", "/-/explorer") == "302 text/plain; charset=utf-8");
  CHECK(f.response().Find("Location") == "/-/explorer/");
  CHECK(f.Answer("GET", "/-/explorer/") == "200 text/html; charset=utf-8");
  CHECK(f.response().body.find("<script type=\"module\" src=\"app.js\"></script>") !=
        std::string::npos);
  CHECK(f.response().Find("Content-Security-Policy")->starts_with("default-src 'self';"));
  for (const char* file :
       {"app.js", "api.js", "edm.js", "ui.js", "tables.js", "table.js", "entity_form.js",
        "charts.js", "traffic.js", "advisor.js", "bill.js", "faults.js"}) {
    INFO(file);
    CHECK(f.Answer("GET", std::string("/-/explorer/") + file) ==
          "200 text/javascript; charset=utf-8");
  }
  CHECK(f.Answer("GET", "/-/explorer/style.css?v=1") == "200 text/css; charset=utf-8");
  CHECK(f.Answer("GET", "/-/explorer/nothing.js") == "404 text/plain; charset=utf-8");
  CHECK(f.Answer("POST", "/-/explorer/") == "405 text/plain; charset=utf-8");
}

TEST_CASE("explorer: server info names the accounts and the targets", "[explorer]") {
  Fixture f;
  REQUIRE(f.Answer("GET", "/-/explorer/api/server") == "200 application/json");
  CHECK(f.response().body ==
        "{\"version\":\"0.1.0\",\"accounts\":[\"devstoreaccount1\"],\"throttling\":false,"
        "\"partition_target\":2000,\"account_target\":20000}\n");
}

TEST_CASE("explorer: Table API calls are handed back rewritten, for configured accounts only",
          "[explorer]") {
  Fixture f;
  CHECK(f.Answer("GET", "/-/explorer/table/devstoreaccount1/Tables?$top=5") ==
        "table api /devstoreaccount1/Tables?$top=5");
  CHECK(f.Answer("MERGE", "/-/explorer/table/devstoreaccount1/t(PartitionKey='a',RowKey='b')") ==
        "table api /devstoreaccount1/t(PartitionKey='a',RowKey='b')");
  CHECK(f.Answer("GET", "/-/explorer/table/devstoreaccount1?x") == "table api /devstoreaccount1?x");
  CHECK(f.Answer("GET", "/-/explorer/table/someoneelse/Tables") == "404 application/json");
  CHECK(f.response().body == "{\"error\":\"no account 'someoneelse' on this server\"}\n");
  CHECK(f.Answer("GET", "/-/explorer/table/devstoreaccount1-secondary/Tables") ==
        "404 application/json");
  CHECK(f.Answer("GET", "/-/explorer/table/") == "404 application/json");
}

TEST_CASE("explorer: Table API calls from another site's page are refused", "[explorer]") {
  Fixture f;
  const std::string create = "/-/explorer/table/devstoreaccount1/Tables";
  const Header host{"Host", "127.0.0.1:10002"};
  const Header version{"x-ms-version", "2019-02-02"};
  CHECK(f.Answer("POST", create, "{}", {host, version, {"Origin", "http://127.0.0.1:10002"}}) ==
        "table api /devstoreaccount1/Tables");
  // A simple cross-origin POST (no custom header, no preflight), or one naming another origin.
  CHECK(f.Answer("POST", create, "{}", {host, {"Origin", "http://evil.example"}}) ==
        "403 application/json");
  CHECK(f.Answer("POST", create, "{}", {host, version, {"Origin", "http://evil.example"}}) ==
        "403 application/json");
  CHECK(f.Answer("POST", create, "{}", {host, version, {"Origin", "https://127.0.0.1:10002"}}) ==
        "403 application/json");
  CHECK(f.Answer("POST", create, "{}", {host}) == "403 application/json");
}

TEST_CASE("explorer: an account's credentials open that account's Table API only", "[explorer]") {
  ServerConfig config;
  config.throttle.enabled = false;
  config.accounts.push_back({"second", Base64Encode("second-key"), {}});
  testing::ServiceHarness host(DateTime{638000000000000000}, "malachite-explorer-cred", config);
  const std::vector<AccountConfig> accounts = {
      {"second", Base64Encode("second-key"), {}},
      {std::string(kDevAccountName), std::string(kDevAccountKey), {}}};
  const AdminAccess access(accounts, false, host.clock());
  auto answer = [&](std::string target, std::string user, std::string key) {
    Request request;
    request.method = "GET";
    request.target = std::move(target);
    request.remote_address = "198.18.0.2";  // not loopback: credentials needed
    request.headers = {{"x-ms-version", "2019-02-02"},
                       {"Host", "emulator:10002"},
                       {"Authorization", "Basic " + Base64Encode(user + ":" + key)}};
    Response response;
    const AdminContext context{true, &host.service().traffic(), nullptr, &host.service().insight(),
                               &access};
    if (HandleAdminRequest(request, context, response) == AdminAnswer::kTableApi) {
      return "table api " + request.target;
    }
    return std::to_string(response.status);
  };
  CHECK(answer("/-/explorer/table/second/Tables", "second", Base64Encode("second-key")) ==
        "table api /second/Tables");
  CHECK(answer("/-/explorer/table/devstoreaccount1/Tables", "second", Base64Encode("second-key")) ==
        "403");
  CHECK(answer("/-/explorer/table/devstoreaccount1/Tables", "devstoreaccount1",
               std::string(kDevAccountKey)) == "table api /devstoreaccount1/Tables");
  CHECK(answer("/-/explorer/table/second/Tables", "second", Base64Encode("wrong")) == "403");
}

}  // namespace malachite::server
