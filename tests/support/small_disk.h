// A small tmpfs mounted for a test's life, to fill a disk on purpose (root only: elsewhere the
// test says why and returns early).
#pragma once

#include <sys/mount.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "tests/support/temp_dir.h"

namespace malachite::testing {

// A tmpfs of `bytes` mounted on a temp dir for the test's life; mounted() is false (and the test
// returns early, saying why) where mounting is not allowed (not root, no CAP_SYS_ADMIN).
class SmallDisk {
 public:
  explicit SmallDisk(std::uint64_t bytes) : dir_("malachite-small-disk") {
    const std::string options = "size=" + std::to_string(bytes);
    mounted_ = ::mount("tmpfs", dir_.path().c_str(), "tmpfs", 0, options.c_str()) == 0;
    if (!mounted_) WARN("cannot mount a tmpfs here (needs root): the full-disk case is skipped");
  }
  ~SmallDisk() {
    if (mounted_) ::umount2(dir_.path().c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  const std::string& path() const { return dir_.path(); }

 private:
  TempDir dir_;
  bool mounted_ = false;
};

}  // namespace malachite::testing
