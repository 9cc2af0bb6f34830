#include "storage/read_only_env.h"

namespace malachite::storage {

int ReadOnlyEnv::Open(const std::string& file) {
  Close();
  if (int rc = mdb_env_create(&env_); rc != 0) {
    env_ = nullptr;
    return rc;
  }
  mdb_env_set_maxdbs(env_, 16);
  // LMDB: without a size set, the map is the one recorded in the file (up to 1 TiB, more than a
  // small address space allows); a set size below the data is raised to the pages in use, which
  // the file holds.
  mdb_env_set_mapsize(env_, 1);
  // LMDB: MDB_RDONLY opens data.mdb read-only and maps only what the file holds; the read-write
  // open is not read-only for the files even when nothing is written (on Windows it sets the
  // file's end to the map size). MDB_NOLOCK leaves lock.mdb alone (a read-only open with locks
  // still creates and writes the reader table); MDB_NOSUBDIR takes `file` as the data file
  // itself, so no `file`-lock is made beside it either. The path is UTF-8 on every system (on
  // Windows, mdb_fname_init converts it with MultiByteToWideChar(CP_UTF8)).
  if (int rc = mdb_env_open(env_, file.c_str(), MDB_RDONLY | MDB_NOLOCK | MDB_NOSUBDIR, 0644);
      rc != 0) {
    Close();
    return rc;
  }
  return 0;
}

void ReadOnlyEnv::Close() {
  if (env_ != nullptr) mdb_env_close(env_);
  env_ = nullptr;
}

}  // namespace malachite::storage
