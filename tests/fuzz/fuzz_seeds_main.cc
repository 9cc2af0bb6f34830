// fuzz_seeds <dir>: writes the seeds of every fuzz target as libFuzzer corpus files,
// <dir>/<target>/seed-NNNN (filter, entity_json, url, multipart, xml, bearer), so scripts/fuzz
// starts each libFuzzer binary from the same inputs its Catch2 driver uses. Exit 1 when a directory
// cannot be written or the case files were not found.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/fuzz/bearer_seeds.h"
#include "tests/fuzz/fuzz_seeds.h"
#include "tests/fuzz/multipart_seeds.h"
#include "tests/fuzz/xml_seeds.h"

namespace {

bool WriteCorpus(const std::filesystem::path& dir, const std::vector<std::string>& seeds) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return false;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "seed-%04zu", i);
    std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
    out.write(seeds[i].data(), static_cast<std::streamsize>(seeds[i].size()));
    if (!out) return false;
  }
  std::printf("fuzz_seeds: %zu seeds in %s\n", seeds.size(), dir.string().c_str());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_seeds <corpus dir>\n");
    return 2;
  }
  using namespace malachite::fuzz;
  const std::filesystem::path root = argv[1];
  const std::vector<std::string> filters = FilterSeeds();
  if (filters.size() < 100) {
    std::fprintf(stderr, "fuzz_seeds: no case files in %s\n", FilterCasesDir().c_str());
    return 1;
  }
  const bool ok =
      WriteCorpus(root / "filter", filters) &&
      WriteCorpus(root / "entity_json", EntityJsonSeeds()) &&
      WriteCorpus(root / "url", UrlSeeds()) && WriteCorpus(root / "multipart", MultipartSeeds()) &&
      WriteCorpus(root / "xml", XmlSeeds()) && WriteCorpus(root / "bearer", BearerSeeds());
  return ok ? 0 : 1;
}
