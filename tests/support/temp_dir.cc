#include "tests/support/temp_dir.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "platform/files.h"

namespace malachite::testing {

TempDir::TempDir(std::string_view prefix) {
  const std::string base =
      (std::filesystem::temp_directory_path() / (std::string(prefix) + "-")).string();
  std::error_code ec;
  path_ = platform::MakeUniqueDir(base, ec);
  if (path_.empty()) throw std::runtime_error("cannot create " + base + "XXXXXX: " + ec.message());
}

TempDir::~TempDir() {
  std::error_code ignored;  // a destructor must not throw; a leftover dir is only litter
  std::filesystem::remove_all(path_, ignored);
}

std::string PathIn(const std::string& dir, std::string_view name) {
  return (std::filesystem::path(dir) / std::filesystem::path(name)).string();
}

void WriteFile(const std::string& path, std::string_view text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace malachite::testing
