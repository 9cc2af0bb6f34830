// The live progress line of an import or export.
#include "cli/progress.h"

#include <catch2/catch.hpp>

namespace malachite::cli {

TEST_CASE("progress: the live line shows entities, rate, share done and time left", "[cli]") {
  CHECK(Progress::Group(1234567) == "1,234,567");
  CHECK(Progress::Group(999) == "999");
  CHECK(Progress::Line("import a", 12345, 2.0, 25, 100) ==
        "import a: 12,345 entities  6,172/s  25% ETA 0:06");
  CHECK(Progress::Line("export t", 10, 1.0, 0, 0) == "export t: 10 entities  10/s");
}

}  // namespace malachite::cli
