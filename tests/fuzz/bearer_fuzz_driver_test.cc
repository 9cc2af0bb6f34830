// Runs bearer_fuzz.cc's entry point on its Authorization header seeds and on random mutations of
// them (MALACHITE_FUZZ_SECONDS, default 2; replay with MALACHITE_FUZZ_SEED).
#include <catch2/catch.hpp>

#include "server/auth/issuer_keys.h"
#include "server/auth/jwt.h"
#include "tests/fuzz/bearer_seeds.h"
#include "tests/fuzz/fuzz_driver.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

TEST_CASE(
    "bearer_fuzz: random Authorization headers and tokens authenticate as bearer principals or "
    "fail with an authentication code, never crash",
    "[fuzz]") {
  const std::vector<std::string> tokens = {
      ".",  "eyJ", "Bearer ", "=",  "-", "_", "+", "/", "e30", "eyJhbGciOiJub25lIn0",
      "\"", "\\",  "\xff",    "Zg", " ", ","};
  // The first two seeds are signed by the seed JWKS, so mutations start from verified tokens.
  const auto seeds = malachite::fuzz::BearerSeeds();
  const auto keys = malachite::server::IssuerKeys::Parse(malachite::fuzz::BearerJwks());
  REQUIRE(keys);
  for (std::size_t i = 0; i < 2; ++i) {
    auto jwt = malachite::server::DecodeJwt(std::string_view(seeds[i]).substr(7));
    REQUIRE(jwt);
    CHECK(keys->Verify(jwt->alg, jwt->kid, jwt->signing_input, jwt->signature) ==
          malachite::server::SignatureCheck::kVerified);
  }
  const auto run = malachite::fuzz::RunMutations("bearer_fuzz", malachite::fuzz::BearerSeeds(),
                                                 tokens, &LLVMFuzzerTestOneInput, 8192);
  CHECK(run.inputs > 0);
}
