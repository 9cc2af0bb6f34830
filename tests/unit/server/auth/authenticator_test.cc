// The Authenticator's refusals: each carries the service's error code and its
// AuthenticationErrorDetail (the signature vectors of the SDKs are in shared_key_test.cc).
#include "server/auth/authenticator.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "common/datetime.h"
#include "server/auth/shared_key.h"
#include "server/http/router.h"
#include "tests/unit/server/auth/auth_requests.h"

namespace malachite::server {
namespace {

using testing::Accounts;
using testing::At;
using testing::Check;
using testing::kDate;
using testing::Make;
using testing::RouteOf;

}  // namespace

TEST_CASE("auth: failures carry the service's code and AuthenticationErrorDetail", "[auth]") {
  const std::string good =
      "SharedKeyLite devstoreaccount1:r0rV8xu3wg5x2e3aiNQUNtgu48tJhq+spHUBlI4lPKs=";
  const std::string path = "/devstoreaccount1/mytable(PartitionKey='p1',RowKey='r''1')";
  CHECK(Check(Make("GET", path, {{"x-ms-date", kDate}})) ==
        "AuthenticationFailed: Anonymous requests are not supported: sign the request with Shared "
        "Key.");
  CHECK(Check(Make("GET", path,
                   {{"x-ms-date", kDate}, {"Authorization", "SharedKeyLite nocolon"}})) ==
        "InvalidAuthenticationInfo: ");
  CHECK(Check(Make("GET", path, {{"x-ms-date", kDate}, {"Authorization", "Bearer abc:def"}})) ==
        "InvalidAuthenticationInfo: Bearer tokens are accepted only when the emulator runs with "
        "--oauth.");
  CHECK(Check(Make("GET", path, {{"Authorization", good}})) ==
        "AuthenticationFailed: Request date header not specified");
  CHECK(Check(Make("GET", path, {{"x-ms-date", "yesterday"}, {"Authorization", good}})) ==
        "AuthenticationFailed: The Date header in the request is incorrect.");
  CHECK(Check(Make("GET", path, {{"x-ms-date", kDate}, {"Authorization", good}}),
              At("Sat, 21 Nov 2026 05:37:47 GMT")) ==
        "AuthenticationFailed: Request date header too old: 'Sat, 21 Nov 2026 05:21:46 GMT'");
  CHECK(Check(Make("GET", path, {{"x-ms-date", kDate}, {"Authorization", good}}),
              At("Sat, 21 Nov 2026 05:36:46 GMT")) == "ok");
  CHECK(Check(Make("GET", path, {{"x-ms-date", kDate}, {"Authorization", good}}),
              At("Sat, 21 Nov 2026 05:05:00 GMT")) ==
        "AuthenticationFailed: Request date header too far in the future: 'Sat, 21 Nov 2026 "
        "05:21:46 GMT'");
  CHECK(Check(Make("GET", "/otheracct/mytable()",
                   {{"x-ms-date", kDate}, {"Authorization", "SharedKey otheracct:abc="}})) ==
        "AuthenticationFailed: The account 'otheracct' in the Authorization header does not match "
        "a known account of this request's URL.");
  CHECK(Check(Make("GET", "/devstoreaccount1/mytable()?sv=2019-02-02&sig=abc", {})) ==
        "AuthenticationFailed: The SAS names neither a table (tn) nor services and resource "
        "types (ss, srt)");
}

TEST_CASE("auth: a wrong signature reports the signature and the string the server signed",
          "[auth]") {
  auto request =
      Make("GET", "/devstoreaccount1/Tables",
           {{"x-ms-date", kDate}, {"Authorization", "SharedKeyLite devstoreaccount1:AAAA"}});
  CHECK(Check(request) ==
        "AuthenticationFailed: The MAC signature found in the HTTP request 'AAAA' is not the same "
        "as any computed signature. Server used following string to sign: 'Sat, 21 Nov 2026 "
        "05:21:46 GMT\n/devstoreaccount1/devstoreaccount1/Tables'.");
}

}  // namespace malachite::server
