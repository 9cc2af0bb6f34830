// Seed inputs of the filter, entity JSON and URL fuzz targets, shared by their Catch2 drivers and
// by `fuzz_seeds`, which writes them out as libFuzzer corpus files (scripts/fuzz). The filter and
// entity seeds come from the shared cases in tests/cases/filter, so a new case is a new seed.
#pragma once

#include <string>
#include <vector>

namespace malachite::fuzz {

// The case directory: $MALACHITE_FILTER_CASES_DIR, else the source tree's tests/cases/filter.
std::string FilterCasesDir();

// Every `filter` of every case file, plus hand-written shapes the cases lack (deep nesting,
// long literals, every key-range form).
std::vector<std::string> FilterSeeds();

// Every case-file entity as a minified Insert Entity body, plus bodies with every EDM type,
// annotated keys, nulls, odata.* members, Timestamp and non-finite Doubles.
std::vector<std::string> EntityJsonSeeds();

// "<METHOD> <request-target>\n<Header: value>\n..." for every route of spec §1.4, with
// X-HTTP-Method tunnelling, percent-encoded keys, absolute-form targets and query options.
std::vector<std::string> UrlSeeds();

}  // namespace malachite::fuzz
