// A fresh directory under the system's temp dir ($TMPDIR, else /tmp), removed with everything in
// it when the object dies.
#pragma once

#include <string>
#include <string_view>

namespace malachite::testing {

class TempDir {
 public:
  // Creates <temp dir>/<prefix>-XXXXXX. Throws std::runtime_error (failing the test) when the
  // directory cannot be created.
  explicit TempDir(std::string_view prefix = "malachite-test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // The directory's absolute path; lives as long as the object.
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// `dir` and `name` joined as the system writes a path (std::filesystem's "/": a backslash on
// Windows), which is how the code under test names the files it finds.
std::string PathIn(const std::string& dir, std::string_view name);

// Writes `text` to `path`, making its missing parent directories.
void WriteFile(const std::string& path, std::string_view text);

}  // namespace malachite::testing
