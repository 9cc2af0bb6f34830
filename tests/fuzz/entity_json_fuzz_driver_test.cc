// Runs entity_json_fuzz.cc's entry point on the case-file entities and hand-written bodies and on
// random mutations of them (MALACHITE_FUZZ_SECONDS, default 2; replay with MALACHITE_FUZZ_SEED).
#include <catch2/catch.hpp>

#include "tests/fuzz/fuzz_driver.h"
#include "tests/fuzz/fuzz_seeds.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

TEST_CASE(
    "entity_json_fuzz: random mutations of entity bodies parse or fail with an entity "
    "error, and every rendering parses back to the same entity",
    "[fuzz]") {
  const auto seeds = malachite::fuzz::EntityJsonSeeds();
  REQUIRE(seeds.size() >= 20);  // the case files were found
  const std::vector<std::string> tokens = {"{",
                                           "}",
                                           "[",
                                           "]",
                                           ",",
                                           ":",
                                           "\"",
                                           "\\",
                                           "\\u0000",
                                           "\\ud83d",
                                           "\\ude00",
                                           "null",
                                           "true",
                                           "1e308",
                                           "-0",
                                           "2147483648",
                                           "9223372036854775808",
                                           "\"@odata.type\":",
                                           "\"Edm.Int64\"",
                                           "\"Edm.Double\"",
                                           "\"Edm.DateTime\"",
                                           "\"Edm.Guid\"",
                                           "\"Edm.Binary\"",
                                           "\"Edm.Int32\"",
                                           "\"Edm.Boolean\"",
                                           "\"NaN\"",
                                           "\"-Infinity\"",
                                           "\"PartitionKey\"",
                                           "\"RowKey\"",
                                           "\"Timestamp\"",
                                           "\"odata.etag\"",
                                           "\"9999-12-31T23:59:59.9999999Z\"",
                                           "\"AA==\"",
                                           "\xc3\xa9",
                                           "\xff",
                                           std::string(1, '\0')};
  const auto run = malachite::fuzz::RunMutations("entity_json_fuzz", seeds, tokens,
                                                 &LLVMFuzzerTestOneInput, 16 * 1024);
  CHECK(run.inputs > 0);
}
