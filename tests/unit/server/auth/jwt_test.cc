// JWT decoding (jwt.h): the compact form's three base64url segments into the claims the service
// checks, and everything else refused.
#include "server/auth/jwt.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "common/encoding.h"
#include "tests/unit/server/test_tokens.h"

namespace malachite::server {
namespace {

using testing::CompactToken;

}  // namespace

TEST_CASE("jwt: a token decodes into the claims the service checks", "[bearer]") {
  auto jwt = DecodeJwt(CompactToken(
      R"({"typ":"JWT","alg":"RS256","kid":"k1"})",
      R"({"aud":["a","b"],"iss":"i","oid":"o","tid":"t","nbf":1.9,"exp":1795000000,"x":[{}]})",
      "\x01\x02"));
  REQUIRE(jwt);
  CHECK(jwt->alg == "RS256");
  CHECK(jwt->kid == "k1");
  CHECK(jwt->audiences == std::vector<std::string>{"a", "b"});
  CHECK(jwt->issuer + jwt->object_id + jwt->tenant_id == "iot");
  CHECK(jwt->not_before == 1);
  CHECK(jwt->expires == 1795000000);
  CHECK(jwt->signature == "\x01\x02");
  CHECK(jwt->signing_input.find('.') != std::string::npos);
  // Absent claims are absent, not errors.
  auto bare = DecodeJwt(CompactToken(R"({})", R"({})", ""));
  REQUIRE(bare);
  CHECK(bare->audiences.empty());
  CHECK_FALSE(bare->expires.has_value());
}

TEST_CASE("jwt: anything but three base64url segments of JSON objects with typed claims fails",
          "[bearer]") {
  const std::string header = Base64UrlEncode(R"({"alg":"RS256"})");
  const std::string claims = Base64UrlEncode(R"({"aud":"x"})");
  for (const std::string& bad :
       {std::string(""), std::string("abc"), header + "." + claims,
        header + "." + claims + ".c2ln.x", header + "." + claims + ".c2l+",
        "!!." + claims + ".c2ln", Base64UrlEncode("[1]") + "." + claims + ".c2ln",
        header + "." + Base64UrlEncode("{\"aud\":") + ".c2ln", CompactToken(R"({"alg":1})", "{}"),
        CompactToken("{}", R"({"aud":1})"), CompactToken("{}", R"({"aud":["x",2]})"),
        CompactToken("{}", R"({"exp":"soon"})"), CompactToken("{}", R"({"nbf":1e300})"),
        CompactToken("{}", R"({"oid":{}})")}) {
    INFO(bad);
    CHECK_FALSE(DecodeJwt(bad).has_value());
  }
}

}  // namespace malachite::server
