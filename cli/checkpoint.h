// Where an interrupted import stopped: per input file, the byte offset and line up to which
// every entity is committed. Kept in a small text file (one "<offset>\t<line>\t<done>\t<file>"
// line per input), replaced atomically, and removed when the import completes.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "common/error.h"

namespace malachite::cli {

struct CheckpointEntry {
  std::uint64_t offset = 0;  // everything before this offset is committed
  std::size_t line = 1;      // the line that starts at `offset`
  bool done = false;         // the whole file is imported
};

class Checkpoint {
 public:
  // A checkpoint kept in `path` ("" keeps it in memory only).
  explicit Checkpoint(std::string path) : path_(std::move(path)) {}
  // Reads the file. Absent file: empty checkpoint. Errors: kInvalidInput (malformed).
  Result<void> Load();
  // Writes the file (temp file + rename). Errors: kInternalError.
  Result<void> Save() const;
  // Deletes the file.
  void Remove() const;

  CheckpointEntry Get(const std::string& file) const;
  void Set(const std::string& file, CheckpointEntry entry) { entries_[file] = entry; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::map<std::string, CheckpointEntry> entries_;
};

}  // namespace malachite::cli
