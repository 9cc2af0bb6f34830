#include "cli/checkpoint.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace malachite::cli {

Result<void> Checkpoint::Load() {
  if (path_.empty()) return {};
  std::ifstream in(path_);
  if (!in) return {};
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    CheckpointEntry entry;
    int done = 0;
    std::string file;
    if (!(fields >> entry.offset >> entry.line >> done) || !std::getline(fields >> std::ws, file)) {
      return Fail(ErrorCode::kInvalidInput, "checkpoint " + path_ + " is malformed");
    }
    entry.done = done != 0;
    entries_[file] = entry;
  }
  return {};
}

Result<void> Checkpoint::Save() const {
  if (path_.empty()) return {};
  const std::string temp = path_ + ".tmp";
  {
    std::ofstream out(temp, std::ios::trunc);
    for (const auto& [file, e] : entries_) {
      out << e.offset << '\t' << e.line << '\t' << (e.done ? 1 : 0) << '\t' << file << '\n';
    }
    if (!out.flush()) return Fail(ErrorCode::kInternalError, "cannot write " + temp);
  }
  if (std::rename(temp.c_str(), path_.c_str()) != 0) {
    return Fail(ErrorCode::kInternalError, "cannot replace " + path_);
  }
  return {};
}

void Checkpoint::Remove() const {
  if (!path_.empty()) std::remove(path_.c_str());
}

CheckpointEntry Checkpoint::Get(const std::string& file) const {
  auto it = entries_.find(file);
  return it == entries_.end() ? CheckpointEntry{} : it->second;
}

}  // namespace malachite::cli
