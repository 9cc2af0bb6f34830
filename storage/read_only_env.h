// A data.mdb opened read-only and without LMDB's lock file, for what reads a store no Malachite
// serves: the format check before the read-write open (lmdb_env.cc) and the census and copy of a
// compaction (compaction.cc).
#pragma once

#include <lmdb.h>

#include <string>

namespace malachite::storage {

class ReadOnlyEnv {
 public:
  ReadOnlyEnv() = default;
  ~ReadOnlyEnv() { Close(); }
  ReadOnlyEnv(const ReadOnlyEnv&) = delete;
  ReadOnlyEnv& operator=(const ReadOnlyEnv&) = delete;

  // Opens the environment in `file` (a data.mdb, UTF-8) with MDB_RDONLY | MDB_NOLOCK |
  // MDB_NOSUBDIR and room for every named database. Returns LMDB's code (0: open), which the
  // caller words: MDB_INVALID or MDB_VERSION_MISMATCH for a file that is not an LMDB
  // environment of this version. REQUIRES: nothing writes the file meanwhile (the caller holds
  // malachite.lock, or the file is a copy nobody else knows of).
  int Open(const std::string& file);
  // Closes it (again: nothing). The handle must be closed before the file is replaced (on
  // Windows a mapped file cannot be).
  void Close();
  MDB_env* get() const { return env_; }

 private:
  MDB_env* env_ = nullptr;
};

}  // namespace malachite::storage
