// Runs multipart_fuzz.cc's entry point on the seed bodies and random mutations of them
// (MALACHITE_FUZZ_SECONDS, default 2; replay with MALACHITE_FUZZ_SEED). A crash, a sanitizer report
// or an abort() of the target's invariants fails the run.
#include <catch2/catch.hpp>

#include "tests/fuzz/fuzz_driver.h"
#include "tests/fuzz/multipart_seeds.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

TEST_CASE("multipart_fuzz: random mutations of the seed bodies never crash the batch decoder",
          "[fuzz]") {
  const std::vector<std::string> tokens = {"\r\n",
                                           "\n",
                                           "\r\n\r\n",
                                           "--",
                                           "--batch_1",
                                           "--changeset_2",
                                           "--changeset_2--",
                                           "--batch_1--",
                                           ":",
                                           " ",
                                           "\t",
                                           "HTTP/1.1",
                                           "multipart/mixed; boundary=",
                                           "application/http",
                                           "Content-ID: 9",
                                           "If-Match: *",
                                           "X-HTTP-Method: PUT",
                                           "{",
                                           "}",
                                           "\"",
                                           "'",
                                           "%27",
                                           "(PartitionKey='p',RowKey='r')",
                                           "\xff",
                                           std::string(1, '\0'),
                                           "\"@odata.type\":\"Edm.Int64\""};
  const auto run = malachite::fuzz::RunMutations(
      "multipart_fuzz", malachite::fuzz::MultipartSeeds(), tokens, &LLVMFuzzerTestOneInput);
  CHECK(run.inputs > 0);
}
