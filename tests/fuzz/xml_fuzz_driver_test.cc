// Runs xml_fuzz.cc's entry point on SDK-shaped ACL and service-properties bodies and on random
// mutations of them (MALACHITE_FUZZ_SECONDS, default 2; replay with MALACHITE_FUZZ_SEED).
#include <catch2/catch.hpp>

#include "tests/fuzz/fuzz_driver.h"
#include "tests/fuzz/xml_seeds.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

TEST_CASE(
    "xml_fuzz: random ACL and service properties bodies parse to a fixed point or fail "
    "with the XML error codes, never crash, and never accept what is not well-formed",
    "[fuzz]") {
  const auto seeds = malachite::fuzz::XmlSeeds();
  const std::vector<std::string> tokens = {"<",
                                           ">",
                                           "</",
                                           "/>",
                                           "<?xml",
                                           "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
                                           " encoding=\"ISO-8859-1\"",
                                           " encoding=\"utf-16\"",
                                           " a=\"1\"",
                                           "<x/>",
                                           "&",
                                           "&#x13;",
                                           "<!DOCTYPE x [<!ENTITY e \"e\">]>",
                                           "&amp;",
                                           "&lt;",
                                           "&#0;",
                                           "&#xFFFF;",
                                           "<![CDATA[",
                                           "]]>",
                                           "<!--",
                                           "-->",
                                           "=\"",
                                           "\"",
                                           "'",
                                           ",",
                                           "*",
                                           " ",
                                           "\n",
                                           "<SignedIdentifier>",
                                           "<Id>",
                                           "<AccessPolicy>",
                                           "<Start>",
                                           "<Expiry>",
                                           "<Permission>",
                                           "<CorsRule>",
                                           "<AllowedOrigins>",
                                           "<AllowedMethods>",
                                           "<AllowedHeaders>",
                                           "<MaxAgeInSeconds>",
                                           "<RetentionPolicy>",
                                           "<Enabled>",
                                           "<Days>",
                                           "<IncludeAPIs>",
                                           "true",
                                           "false",
                                           "365",
                                           "-1",
                                           "2024-01-01",
                                           "T00:00Z",
                                           "\xff",
                                           std::string(1, '\0')};
  const auto run =
      malachite::fuzz::RunMutations("xml_fuzz", seeds, tokens, &LLVMFuzzerTestOneInput, 16 * 1024);
  CHECK(run.inputs > 0);
}
