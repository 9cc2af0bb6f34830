// Runs url_fuzz.cc's entry point on request lines for every route and on random mutations of them
// (MALACHITE_FUZZ_SECONDS, default 2; replay with MALACHITE_FUZZ_SEED).
#include <catch2/catch.hpp>

#include "tests/fuzz/fuzz_driver.h"
#include "tests/fuzz/fuzz_seeds.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

TEST_CASE(
    "url_fuzz: random request targets, methods and headers route or fail with a routing "
    "error, never crash",
    "[fuzz]") {
  const auto seeds = malachite::fuzz::UrlSeeds();
  const std::vector<std::string> tokens = {"/",
                                           "//",
                                           "?",
                                           "&",
                                           "=",
                                           "%",
                                           "%27",
                                           "%2F",
                                           "%00",
                                           "%C3%A9",
                                           "%ZZ",
                                           "'",
                                           "''",
                                           "(",
                                           ")",
                                           ",",
                                           "PartitionKey=",
                                           "RowKey=",
                                           "Tables",
                                           "$batch",
                                           "comp=acl",
                                           "comp=stats",
                                           "restype=service",
                                           "-secondary",
                                           "http://",
                                           "\nX-HTTP-Method: ",
                                           "\nIf-Match: *",
                                           "\nHost: devstoreaccount1.localhost:1",
                                           "myacct.",
                                           "-secondary.",
                                           "[::1]",
                                           "@",
                                           "MERGE",
                                           "PUT",
                                           "DELETE",
                                           "POST",
                                           "$filter=",
                                           "$select=",
                                           "$top=",
                                           "NextPartitionKey=",
                                           " ",
                                           "\xff"};
  const auto run =
      malachite::fuzz::RunMutations("url_fuzz", seeds, tokens, &LLVMFuzzerTestOneInput, 8192);
  CHECK(run.inputs > 0);
}
