// A fresh directory under /tmp, removed with everything in it when the object dies.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace malachite::storage::testing {

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/malachite-storage-test-XXXXXX";
    path_ = ::mkdtemp(tmpl);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace malachite::storage::testing
