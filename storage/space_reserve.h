// The space reserve of a data directory (storage/FORMAT.md, "Full disks"): a file of
// preallocated blocks, `space.reserve`, that the store gives back to the file system when a
// commit finds the disk full, so that deletes (which need fresh pages too: LMDB copies every page
// it changes) can still commit, and takes again once the disk has room.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "common/error.h"
#include "platform/files.h"

namespace malachite::storage {

class SpaceReserve {
 public:
  // Opens (creating) `<dir>/space.reserve`, which the reserve keeps open for its life (so it works
  // on after the directory is unlinked, as --in-memory does), and takes what it can of `bytes`
  // (TakeWhatFits) -- except when an earlier run gave the whole reserve back (the file is there
  // and empty) and the disk has no room for twice the reserve: then it holds nothing, and the
  // store starts with its space alarm raised. Errors: kInternalError when the file cannot be
  // created.
  static Result<std::unique_ptr<SpaceReserve>> Open(const std::string& dir, std::uint64_t bytes);
  // Removes `<dir>/space.reserve` if an earlier run left one (a store opened without a reserve
  // gives its blocks back). Absent is not an error; nor is a failure (the file is only blocks).
  static void RemoveLeftover(const std::string& dir);
  ~SpaceReserve() = default;
  SpaceReserve(const SpaceReserve&) = delete;
  SpaceReserve& operator=(const SpaceReserve&) = delete;

  // Allocates the whole reserve (`bytes` of Open) or nothing: true when it is held afterwards.
  bool TakeAll();
  // Allocates as much of the reserve as the file system has room for (in 4 KiB steps; halving
  // the request, down to 64 KiB, when that does not fit); returns the bytes held afterwards
  // (what was held before when not even that fits).
  std::uint64_t TakeWhatFits();
  // Gives every block of the reserve back to the file system; returns how many bytes it held.
  std::uint64_t Release();

  // Bytes the file system holding the reserve has free for this process (root may use the blocks
  // reserved for it); 0 when it cannot tell.
  std::uint64_t DiskRoom() const;

  std::uint64_t held() const { return held_; }
  std::uint64_t wanted() const { return wanted_; }

 private:
  SpaceReserve(platform::File file, std::uint64_t wanted)
      : file_(std::move(file)), wanted_(wanted) {}
  // Allocates blocks for [0, bytes) of the file; on failure gives back what this call added.
  bool Allocate(std::uint64_t bytes);

  platform::File file_;
  const std::uint64_t wanted_;
  std::uint64_t held_ = 0;
};

}  // namespace malachite::storage
