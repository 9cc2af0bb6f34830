#include "server/ops/cors.h"

#include <catch2/catch.hpp>

namespace malachite::server {
namespace {

CorsRule MakeRule(std::vector<std::string> origins, std::vector<std::string> methods,
                  std::vector<std::string> headers, std::vector<std::string> exposed = {}) {
  return CorsRule{std::move(origins), std::move(methods), std::move(headers), std::move(exposed),
                  30};
}

// Status and the CORS headers of a preflight (or the error code).
std::string Preflight(const std::vector<CorsRule>& rules, std::vector<Header> headers) {
  Request request;
  request.method = "OPTIONS";
  request.headers = std::move(headers);
  Response response;
  auto ok = AnswerPreflight(rules, request, response);
  if (!ok) return std::string(ok.error().AzureCode());
  std::string out = std::to_string(response.status);
  for (const Header& h : response.headers) out += " | " + h.name + ": " + h.value;
  return out;
}

std::string Actual(const std::vector<CorsRule>& rules, std::string method,
                   std::vector<Header> headers) {
  Request request;
  request.method = std::move(method);
  request.headers = std::move(headers);
  Response response;
  ApplyCorsRules(rules, request, response);
  std::string out;
  for (const Header& h : response.headers)
    out += (out.empty() ? "" : " | ") + h.name + ": " + h.value;
  return out;
}

}  // namespace

TEST_CASE("cors: preflight picks the first origin+method match and checks its headers", "[cors]") {
  const std::vector<CorsRule> rules = {
      MakeRule({"http://a.example"}, {"GET"}, {"x-ms-meta-*"}),
      MakeRule({"*"}, {"GET", "PUT"}, {"*"}),
  };
  CHECK(Preflight(rules, {{"Origin", "http://a.example"},
                          {"Access-Control-Request-Method", "GET"},
                          {"Access-Control-Request-Headers", "X-MS-META-abc"}}) ==
        "200 | Access-Control-Allow-Origin: http://a.example | Access-Control-Allow-Methods: GET "
        "| Access-Control-Allow-Headers: X-MS-META-abc | Access-Control-Max-Age: 30 | "
        "Access-Control-Allow-Credentials: true");
  // The first rule matched origin and method, so its header list decides (no fall-through).
  CHECK(Preflight(rules, {{"Origin", "http://a.example"},
                          {"Access-Control-Request-Method", "GET"},
                          {"Access-Control-Request-Headers", "content-type"}}) ==
        "CorsPreflightFailure");
  CHECK(Preflight(rules, {{"Origin", "http://a.example"},
                          {"Access-Control-Request-Method", "PUT"},
                          {"Access-Control-Request-Headers", "content-type"}}) ==
        "200 | Access-Control-Allow-Origin: * | Access-Control-Allow-Methods: PUT | "
        "Access-Control-Allow-Headers: content-type | Access-Control-Max-Age: 30");
  CHECK(Preflight(rules, {{"Origin", "http://A.example"},
                          {"Access-Control-Request-Method", "DELETE"}}) == "CorsPreflightFailure");
  CHECK(Preflight({}, {{"Origin", "http://a.example"}, {"Access-Control-Request-Method", "GET"}}) ==
        "CorsPreflightFailure");
  CHECK(Preflight(rules, {{"Access-Control-Request-Method", "GET"}}) == "InvalidHeaderValue");
  CHECK(Preflight(rules, {{"Origin", "http://a.example"}}) == "InvalidHeaderValue");
}

TEST_CASE("cors: actual requests get Allow-Origin, Expose-Headers and Vary per the rule",
          "[cors]") {
  const std::vector<CorsRule> exact = {
      MakeRule({"http://a.example"}, {"GET", "POST"}, {}, {"x-ms-request-id", "etag"})};
  CHECK(Actual(exact, "GET", {{"Origin", "http://a.example"}}) ==
        "Access-Control-Allow-Origin: http://a.example | Access-Control-Expose-Headers: "
        "x-ms-request-id,etag | Access-Control-Allow-Credentials: true | Vary: Origin");
  CHECK(Actual(exact, "POST", {{"Origin", "http://a.example"}}) ==
        "Access-Control-Allow-Origin: http://a.example | Access-Control-Expose-Headers: "
        "x-ms-request-id,etag | Access-Control-Allow-Credentials: true");
  CHECK(Actual(exact, "GET", {{"Origin", "http://b.example"}}) == "Vary: Origin");
  CHECK(Actual(exact, "DELETE", {{"Origin", "http://b.example"}}).empty());
  CHECK(Actual(exact, "GET", {}).empty());
  CHECK(Actual({MakeRule({"*"}, {"GET"}, {})}, "GET", {{"Origin", "http://z.example"}}) ==
        "Access-Control-Allow-Origin: *");
  CHECK(Actual({}, "GET", {{"Origin", "http://a.example"}}).empty());
}

TEST_CASE("cors: header lists match literals case-insensitively and prefixes by their stem",
          "[cors]") {
  const CorsRule rule = MakeRule({"*"}, {"GET"}, {"x-ms-meta-*", "content-type"});
  CHECK(CorsHeadersAllowed(rule, ""));
  CHECK(CorsHeadersAllowed(rule, "Content-Type, x-ms-meta-data"));
  CHECK_FALSE(CorsHeadersAllowed(rule, "content-type,x-ms-date"));
  CHECK(CorsHeadersAllowed(MakeRule({"*"}, {"GET"}, {"*"}), "anything,else"));
}

}  // namespace malachite::server
