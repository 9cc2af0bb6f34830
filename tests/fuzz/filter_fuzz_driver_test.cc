// Runs filter_fuzz.cc's entry point on the shared filter cases and random mutations of them
// (MALACHITE_FUZZ_SECONDS, default 2; replay with MALACHITE_FUZZ_SEED).
#include <catch2/catch.hpp>

#include "tests/fuzz/fuzz_driver.h"
#include "tests/fuzz/fuzz_seeds.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

TEST_CASE(
    "filter_fuzz: random mutations of every shared filter case never break the parser, "
    "planner or evaluator invariants",
    "[fuzz]") {
  const auto seeds = malachite::fuzz::FilterSeeds();
  REQUIRE(seeds.size() >= 100);  // the case files were found
  const std::vector<std::string> tokens = {" eq ",
                                           " ne ",
                                           " gt ",
                                           " ge ",
                                           " lt ",
                                           " le ",
                                           " and ",
                                           " or ",
                                           "not ",
                                           "(",
                                           ")",
                                           "'",
                                           "''",
                                           "PartitionKey",
                                           "RowKey",
                                           "TableName",
                                           "Timestamp",
                                           "datetime'",
                                           "guid'",
                                           "X'",
                                           "binary'",
                                           "L",
                                           "d",
                                           "E+",
                                           "-",
                                           ".",
                                           "1",
                                           "2147483648",
                                           "9223372036854775807",
                                           "true",
                                           "null",
                                           " ",
                                           "\xc3\xa9",
                                           "\xf0\x9f\x98\x80",
                                           "\xff",
                                           std::string(1, '\0')};
  const auto run =
      malachite::fuzz::RunMutations("filter_fuzz", seeds, tokens, &LLVMFuzzerTestOneInput, 4096);
  CHECK(run.inputs > 0);
}
