// Seeds of the bearer fuzz target (bearer_fuzz.cc): Authorization header values with Entra ID
// test tokens, and the JWKS whose keys signed the first two (made once with openssl and node's
// crypto; the private keys were not kept). Shared by the Catch2 driver and fuzz_seeds.
#pragma once

#include <string>
#include <vector>

namespace malachite::fuzz {

// {"keys":[RSA 2048 "r1", P-256 "e1"]}
inline const char* BearerJwks() {
  return R"({"keys":[{"kty":"RSA","n":"o7gTOWjjT0caDRouN1Luw52YYSlCKR2seUx2PX9P_hOVKrl1YAIO5l-Th8E)"
         R"(UYUNYoCafI6KzBM_cFCh4G69pH3CHg9FYAXRy525zsoueh-lZ4xMyS8MZcj_WQIuNwERIbMzVz7S0gfrXZu9j6)"
         R"(Q3F_jC8mV1PWukmjJVJ03xCHe5UnWaed75vcGx5vUwue8w_HvZiZ02G9JYoXVfBxzwlDcmyLIH8lORxn9Hq23E)"
         R"(-2Rg4BofIPdvG4XJXEk7l94k7VFFVezXSYGy8j8Twzzv4ykALGkFFv6VLpZL68pKErQS8O_n19xPISiRAjIK1D)"
         R"(F0grNOgjFAjko9a-0SixOL6qQ","e":"AQAB","kid":"r1"},{"kty":"EC","x":"XQCZbVF9rhLnHYQ-NdZ)"
         R"(JMLBjmexUJKKyBDOZ58NpwGE","y":"GrN6RadSdrVeaERnaoaiHndNykZjF7B9zRc-IQdHNVM","crv":"P-2)"
         R"(56","kid":"e1"}]})";
}

// "Bearer <token>" values: an RS256 and an ES256 token signed by BearerJwks() (valid until
// 2100), then unsigned tokens with the claim forms the checks look at, and malformed headers.
inline std::vector<std::string> BearerSeeds() {
  const std::string unsigned_header =
      "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9";  // {"typ":"JWT","alg":"RS256"}
  return {
      "Bearer "
      "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiIsImtpZCI6InIxIn0.eyJhdWQiOiJodHRwczovL3N0b3JhZ2UuYXp1"
      "cmUuY29tIiwiaXNzIjoiaHR0cHM6Ly9zdHMud2luZG93cy5uZXQvNzJmOTg4YmYtODZmMS00MWFmLTkxYWItMmQ3"
      "Y2QwMTFkYjQ3LyIsIm9pZCI6IjAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwYzBkZSIsIm5iZiI6MCwi"
      "ZXhwIjo0MTAyNDQ0ODAwfQ.fJOAV79SmyPBEv6SD-DMYBQWTcISBF0Xg8cGU4_F9ay9Jbcc3b7pG2fWlWiCCLJBb"
      "3wwOSc7muGl7r0TV6odSJNmzC7clkGw6FVNu0ySOuCVB0OLpnuH2gSzd0nzysBu70h_2GxL6djzJ1rOkcolLO2JB"
      "SkEPzybxXf8-VMs9HNUAnHDZXcm1j6fZejy9CgM3be0S4Ubd_KOZmRMUXbDojzl01PMZ1ot5dRL5IZ2tytHGSTo8"
      "Vfxjg1dpgSwyM79BMvb1H1YNoUhKuV6t9oTYyf5gzSVEssF7eQaRByQXBiywMT9271TaErnwF8wCko4NnQDIX0u-"
      "amL-WBSr8MsQg",
      "Bearer "
      "eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiIsImtpZCI6ImUxIn0.eyJhdWQiOiJodHRwczovL3N0b3JhZ2UuYXp1"
      "cmUuY29tIiwiaXNzIjoiaHR0cHM6Ly9zdHMud2luZG93cy5uZXQvNzJmOTg4YmYtODZmMS00MWFmLTkxYWItMmQ3"
      "Y2QwMTFkYjQ3LyIsIm9pZCI6IjAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwYzBkZSIsIm5iZiI6MCwi"
      "ZXhwIjo0MTAyNDQ0ODAwfQ.LOIQIWkGTP-LoCizQdzhiqnJ50L9JLeYL0SiCcEFquKKUZwv4rex-qaoxYXYo6Dlu"
      "64irVgXSxkIwbYxYoj1YA",
      "Bearer " + unsigned_header +
          "."
          "eyJhdWQiOlsiaHR0cHM6Ly9vdGhlciIsImh0dHBzOi8vc3RvcmFnZS5henVyZS5jb20vIl0sImlzcyI6Imh0dHBz"
          "Oi8vbG9naW4ubWljcm9zb2Z0b25saW5lLmNvbS83MmY5ODhiZi04NmYxLTQxYWYtOTFhYi0yZDdjZDAxMWRiNDcv"
          "djIuMCIsIm5iZiI6MS41LCJleHAiOjQxMDI0NDQ4MDAsIm9pZCI6InIifQ"
          ".c2ln",
      "Bearer " + unsigned_header +
          "."
          "eyJhdWQiOiJodHRwczovL2RldnN0b3JlYWNjb3VudDEudGFibGUuY29yZS53aW5kb3dzLm5ldCIsImlzcyI6Imh0"
          "dHBzOi8vc3RzLmNoaW5hY2xvdWRhcGkuY24vNzJmOTg4YmYtODZmMS00MWFmLTkxYWItMmQ3Y2QwMTFkYjQ3LyIs"
          "ImV4cCI6NDEwMjQ0NDgwMH0"
          ".c2ln",
      "Bearer " + unsigned_header +
          "."
          "eyJhdWQiOiJodHRwczovL3N0b3JhZ2UuYXp1cmUuY29tIiwiaXNzIjoiaHR0cHM6Ly9zdHMud2luZG93cy5uZXQv"
          "bm90LWEtZ3VpZC8iLCJleHAiOjF9"
          ".c2ln",
      "Bearer " + unsigned_header +
          "."
          "eyJhdWQiOiJodHRwczovL3N0b3JhZ2UuYXp1cmUuY29tIiwiaXNzIjoiaHR0cHM6Ly9zdHMud2luZG93cy5uZXQv"
          "NzJmOTg4YmYtODZmMS00MWFmLTkxYWItMmQ3Y2QwMTFkYjQ3LyJ9"
          ".c2ln",
      "Bearer",
      "Bearer ",
      "bearer a.b.c",
      "Bearer " + unsigned_header + "..",
      "SharedKeyLite devstoreaccount1:abc=",
  };
}

}  // namespace malachite::fuzz
