// The insight endpoints (insight_endpoints.h) called directly: the advisor, the bill and its
// prices, capacity and the traffic history as JSON, and their errors.
#include "server/insight/insight_endpoints.h"

#include <catch2/catch.hpp>

#include "server/pipeline/service.h"
#include "tests/unit/server/service_harness.h"

namespace malachite::server {
namespace {

class Fixture {
 public:
  Fixture() : host_(DateTime{638000000000000000}, "malachite-insight") {}

  // Runs `method target` through HandleInsightRequest: "<status> <Content-Type>".
  std::string Answer(std::string method, std::string target, std::string body = {}) {
    Request request;
    request.method = std::move(method);
    request.target = std::move(target);
    request.body = std::move(body);
    REQUIRE(IsInsightPath(request.target.substr(0, request.target.find('?'))));
    response_ = Response{};
    HandleInsightRequest(host_.service().insight(), request, response_);
    return std::to_string(response_.status) + " " +
           std::string(response_.Find("Content-Type").value_or(""));
  }

  const Response& response() const { return response_; }

 private:
  testing::ServiceHarness host_;
  Response response_;
};

}  // namespace

TEST_CASE("insight_endpoints: only the insight paths are insight paths", "[insight]") {
  for (const char* path :
       {"/-/advisor", "/-/bill", "/-/bill/prices", "/-/capacity", "/-/traffic"}) {
    CHECK(IsInsightPath(path));
  }
  CHECK_FALSE(IsInsightPath("/-/metrics"));
  CHECK_FALSE(IsInsightPath("/-/bill/"));
  CHECK_FALSE(IsInsightPath("/devstoreaccount1/Tables"));
}

TEST_CASE("insight_endpoints: JSON answers and errors", "[insight]") {
  Fixture f;
  CHECK(f.Answer("GET", "/-/advisor") == "200 application/json");
  CHECK(f.response().body.starts_with("{\"findings\":[],\"summary\":{\"tables\":0,"));
  CHECK(f.Answer("GET", "/-/advisor?severity=bad") == "400 application/json");
  CHECK(f.Answer("GET", "/-/advisor?category=differs-from-azurite") == "200 application/json");
  CHECK(f.Answer("GET", "/-/advisor?category=bad") == "400 application/json");
  CHECK(f.Answer("POST", "/-/advisor") == "405 text/plain; charset=utf-8");
  CHECK(f.Answer("PUT", "/-/bill/prices", R"({"currency":"EUR"})") == "200 application/json");
  CHECK(f.response().body.starts_with("{\"currency\":\"EUR\","));
  CHECK(f.Answer("PUT", "/-/bill/prices", "nope") == "400 application/json");
  CHECK(f.Answer("GET", "/-/bill") == "200 application/json");
  CHECK(f.response().body.find("\"account\":\"devstoreaccount1\",\"tables\":[],\"transactions\":0,"
                               "\"capacity\":{\"account\":\"devstoreaccount1\",\"entities\":0,") !=
        std::string::npos);
  CHECK(f.Answer("GET", "/-/capacity?account=devstoreaccount1") == "200 application/json");
  CHECK(f.Answer("GET", "/-/capacity?account=nobody") == "404 application/json");
  CHECK(f.Answer("GET", "/-/capacity?account=devstoreaccount1&table=none") ==
        "404 application/json");
  CHECK(f.Answer("GET", "/-/capacity") == "400 application/json");
  CHECK(f.Answer("GET", "/-/traffic?since=soon") == "400 application/json");
  CHECK(f.Answer("GET", "/-/traffic") == "200 application/json");
  CHECK(f.response().body == "{\"target\":2000,\"interval_ms\":1000,\"samples\":[]}\n");
  CHECK(f.Answer("DELETE", "/-/traffic") == "405 text/plain; charset=utf-8");
  CHECK(f.response().Find("Allow") == "GET");
}

}  // namespace malachite::server
