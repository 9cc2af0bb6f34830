// Requests for the Authenticator's tests (shared_key_test.cc, authenticator_test.cc): a request
// built from its parts, its route, the two accounts they sign for, and the verdict as text.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "common/datetime.h"
#include "server/auth/authenticator.h"
#include "server/http/router.h"

namespace malachite::server::testing {

// The x-ms-date the signature vectors were computed for.
inline constexpr const char* kDate = "Sat, 21 Nov 2026 05:21:46 GMT";

inline Request Make(std::string method, std::string target, std::vector<Header> headers) {
  Request request;
  request.method = std::move(method);
  request.target = std::move(target);
  request.headers = std::move(headers);
  return request;
}

inline Route RouteOf(const Request& request) {
  auto route = RouteRequest(request);
  REQUIRE(route);
  return *route;
}

inline DateTime At(std::string_view rfc1123) { return *ParseRfc1123(rfc1123); }

inline std::vector<AccountConfig> Accounts() {
  return {{std::string(kDevAccountName), std::string(kDevAccountKey), {}},
          {"myacct", "bXlhY2N0LXNlY3JldC1rZXktMQ==", "bXlhY2N0LXNlY3JldC1rZXktMg=="}};
}

// "ok" or "<code>: <detail>".
inline std::string Check(const Request& request, DateTime now = At(kDate)) {
  Authenticator auth(Accounts());
  auto result = auth.Authenticate(request, RouteOf(request), now);
  if (result) return "ok";
  return std::string(result.error().AzureCode()) + ": " + result.error().detail;
}

}  // namespace malachite::server::testing
