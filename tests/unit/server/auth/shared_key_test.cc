// Signature vectors computed independently (Python hmac/hashlib over the strings the SDKs sign).
#include "server/auth/shared_key.h"

#include <catch2/catch.hpp>
#include <thread>

#include "common/datetime.h"
#include "server/auth/authenticator.h"
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

TEST_CASE("shared_key: HMAC-SHA256 matches RFC 4231 (short key, and a key longer than a block)",
          "[auth]") {
  CHECK(ComputeSignature("Jefe", "what do ya want for nothing?").value() ==
        "W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=");
  CHECK(ComputeSignature(std::string(131, '\xaa'),
                         "Test Using Larger Than Block-Size Key - Hash Key First")
            .value() == "YOQxWR7gtn8Niiaqy/W3f44LxiE3KMUUBUYEDw7jf1Q=");
}

TEST_CASE("shared_key: one key signs the same on every thread, with more keys than a thread caches",
          "[auth]") {
  const std::vector<std::string> expected = {"gmJTR3tgd4szrnzQubh30SHo3jrxqeF5H3L2kpM8v+8=",
                                             "AzAxboz1HE7mWOPyKRMy1Ni9ADu22RkXrhJEkEosZ6I=",
                                             "tD6AwFxZ5HKAz9o35+TZZnlLrw1DUdNuCvj3Bnv1gsw=",
                                             "9epRCe1A8sbQamBVfjPuu3qqYThhW+viDcVSoBPsq2w=",
                                             "HUFk1I4//oKyepiQNggA8WDZK2UhTQdnhx2UuTVJdpM=",
                                             "H+HN0jthLXF0nG555WsiRIUVuatCWaewDqyetAzcw3I="};
  std::vector<HmacSha256Key> keys;
  for (std::size_t i = 0; i < expected.size(); ++i) keys.emplace_back("key-" + std::to_string(i));
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < mismatches.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 200; ++round) {
        const std::size_t i = (round * 7 + t) % keys.size();
        if (keys[i].Sign("text").value() != expected[i]) ++mismatches[t];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(mismatches == std::vector<int>(4, 0));
  CHECK(SignatureMatches(keys, "text", expected[5]).value());
  CHECK_FALSE(SignatureMatches(keys, "text", "AAAA" + expected[5].substr(4)).value());
}

TEST_CASE("shared_key: string-to-sign of the JS SDK (SharedKeyLite, raw quotes in the path)",
          "[auth]") {
  auto request = Make("GET", "/devstoreaccount1/mytable(PartitionKey='p1',RowKey='r''1')",
                      {{"x-ms-date", kDate}, {"Accept", "application/json"}});
  CHECK(SharedKeyLiteStringToSign(request, RouteOf(request)) ==
        std::string(kDate) +
            "\n/devstoreaccount1/devstoreaccount1/mytable(PartitionKey='p1',RowKey='r''1')");
  request.headers.push_back(
      {"Authorization",
       "SharedKeyLite devstoreaccount1:r0rV8xu3wg5x2e3aiNQUNtgu48tJhq+spHUBlI4lPKs="});
  CHECK(Check(request) == "ok");
}

TEST_CASE("shared_key: string-to-sign of the Python SDK (SharedKey, x-ms-date over Date)",
          "[auth]") {
  auto request = Make("POST", "/devstoreaccount1/Tables",
                      {{"Content-Type", "application/json;odata=nometadata"},
                       {"Date", "Sat, 21 Nov 2026 05:00:00 GMT"},
                       {"x-ms-date", kDate}});
  CHECK(SharedKeyStringToSign(request, RouteOf(request)) ==
        "POST\n\napplication/json;odata=nometadata\n" + std::string(kDate) +
            "\n/devstoreaccount1/devstoreaccount1/Tables");
  request.headers.push_back(
      {"Authorization", "SharedKey devstoreaccount1:6O/71iWklngkvCVwBH7p0vTisvkGe39LBas0EgaHmJ8="});
  CHECK(Check(request) == "ok");
}

TEST_CASE("shared_key: node legacy signs %27 and an empty Content-Type", "[auth]") {
  auto request =
      Make("GET", "/devstoreaccount1/Tables(%27mytable%27)",
           {{"content-type", ""},
            {"x-ms-date", kDate},
            {"Authorization",
             "SharedKey devstoreaccount1:9anXYXKBtBCbwTpsDKZjsTCdwAl6Hr8K4An0Wb6FbOc="}});
  CHECK(Check(request) == "ok");
}

TEST_CASE("shared_key: only comp is appended and -secondary is stripped", "[auth]") {
  auto props =
      Make("GET", "/devstoreaccount1/?restype=service&comp=properties",
           {{"x-ms-date", kDate},
            {"Authorization",
             "SharedKeyLite devstoreaccount1:/8r+n/FM00pzxb0wFx8N5cRRFwVop6XexBOmV5lXztk="}});
  CHECK(CanonicalizedResource(RouteOf(props)) ==
        "/devstoreaccount1/devstoreaccount1/?comp=properties");
  CHECK(Check(props) == "ok");
  auto stats = Make("GET", "/devstoreaccount1-secondary/?restype=service&comp=stats",
                    {{"x-ms-date", kDate},
                     {"Authorization",
                      "SharedKey devstoreaccount1:6WPnpMGuHt8/6GB95a75SZlBZ+IKM+/kO5/xw+xodm0="}});
  CHECK(CanonicalizedResource(RouteOf(stats)) == "/devstoreaccount1/devstoreaccount1/?comp=stats");
  CHECK(Check(stats) == "ok");
}

TEST_CASE(
    "shared_key: on the secondary path the path as sent (suffix kept) also verifies, for SharedKey "
    "and SharedKeyLite, and nowhere else",
    "[auth]") {
  // What the .NET SDK signs: "/devstoreaccount1/devstoreaccount1-secondary/?comp=stats".
  const std::string stats = "/devstoreaccount1-secondary/?restype=service&comp=stats";
  CHECK(
      Check(Make("GET", stats,
                 {{"x-ms-date", kDate},
                  {"Authorization",
                   "SharedKey devstoreaccount1:L1tIhAxOttI4FDwyL+6knJ3ABaoXrRkWeh/iyH1BZow="}})) ==
      "ok");
  CHECK(Check(Make(
            "GET", stats,
            {{"x-ms-date", kDate},
             {"Authorization",
              "SharedKeyLite devstoreaccount1:E00wM02EXh01OnJPh1RhG4Ji8va5JtraBdiH195hDd4="}})) ==
        "ok");
  // A signature over the secondary path does not authorize a request on the primary.
  auto primary =
      Check(Make("GET", "/devstoreaccount1/?restype=service&comp=properties",
                 {{"x-ms-date", kDate},
                  {"Authorization",
                   "SharedKey devstoreaccount1:8bFLs4TPgxRmvpJwgFGSYU3+0fird7iU2V4cV0NzjVk="}}));
  CHECK(primary.starts_with("AuthenticationFailed: The MAC signature"));
  // A wrong signature still fails on the secondary, and the detail shows the service's form.
  auto wrong =
      Check(Make("GET", stats,
                 {{"x-ms-date", kDate},
                  {"Authorization",
                   "SharedKey devstoreaccount1:8bFLs4TPgxRmvpJwgFGSYU3+0fird7iU2V4cV0NzjVk="}}));
  CHECK(wrong.ends_with("/devstoreaccount1/devstoreaccount1/?comp=stats'."));
}

TEST_CASE("shared_key: a tunnelled MERGE signs the real verb POST and key2 also verifies",
          "[auth]") {
  auto request =
      Make("POST", "/myacct/mytable(PartitionKey='a',RowKey='b')",
           {{"X-HTTP-Method", "MERGE"},
            {"Content-Type", "application/json"},
            {"x-ms-date", kDate},
            {"Authorization", "SharedKey myacct:7wdCraC225srJbDDpYJlYyKqp4ZrMiNtU4rPts6x5Fc="}});
  CHECK(Check(request) == "ok");
}

}  // namespace malachite::server
