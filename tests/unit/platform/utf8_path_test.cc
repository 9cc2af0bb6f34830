// common/utf8_path.h beside the platform calls it must agree with: a UTF-8 name is one file for
// platform::File and for std::filesystem, on every system.
#include "common/utf8_path.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "platform/files.h"
#include "tests/support/temp_dir.h"

namespace malachite::platform {
namespace {

using testing::TempDir;

// "données-数据": characters of code page 1252 and characters of none of Windows' ANSI code pages
// but the East Asian ones.
const std::string kName =
    "donn\xc3\xa9"
    "es-\xe6\x95\xb0\xe6\x8d\xae";

TEST_CASE(
    "utf8 path: a name in UTF-8 is the same file for the platform calls and "
    "std::filesystem, and is listed back as it was written",
    "[platform]") {
  TempDir dir("platform");
  const std::string path = dir.path() + "/" + kName;
  std::error_code ec;
  CHECK(File::OpenOrCreate(path, ec).is_open());
  CHECK(std::filesystem::is_regular_file(Utf8Path(path)));
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(Utf8Path(dir.path()))) {
    names.push_back(PathUtf8(entry.path().filename()));
  }
  CHECK(names == std::vector<std::string>{kName});
  CHECK(PathUtf8(Utf8Path(path)) == path);
}

TEST_CASE("utf8 path: directories made from a UTF-8 name take that name", "[platform]") {
  TempDir dir("platform");
  const std::string path = dir.path() + "/" + kName + "/tables";
  REQUIRE(std::filesystem::create_directories(Utf8Path(path)));
  std::error_code ec;
  CHECK(File::OpenOrCreate(path + "/data.mdb", ec).is_open());
  CHECK_FALSE(CheckDirWritable(path));
  CHECK(std::filesystem::is_directory(Utf8Path(dir.path() + "/" + kName)));
}

}  // namespace
}  // namespace malachite::platform
