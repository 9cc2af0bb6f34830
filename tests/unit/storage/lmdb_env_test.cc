// LmdbEnv::Open under an address-space limit: the default 1 TiB map does not fit where the kernel
// or a limit gives a process less (ulimit -v, a 39-bit arm64 kernel, qemu-user), and Open must fall
// back to a smaller map instead of failing. Each case runs in a child process, whose limit cannot
// leak into the other tests; the child reports through its exit status.
#include "storage/lmdb_env.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <string>

#include "storage/lmdb_txn.h"
#include "tests/support/temp_dir.h"

namespace malachite::storage {
namespace {

using testing::TempDir;

enum ChildExit { kOpened = 0, kOpenFailed = 1, kWriteFailed = 2, kLimitFailed = 3 };

// The address space the calling process has mapped already (VmSize), in bytes. Under
// AddressSanitizer it includes terabytes of shadow reservations.
std::uint64_t MappedBytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0;
  statm >> pages;
  return pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

// In a child allowed `headroom` bytes of address space beyond what it has mapped already: opens
// a `map_size` environment and commits a write.
int OpenLimited(const std::string& dir, std::uint64_t headroom, std::uint64_t map_size) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const rlim_t address_space = MappedBytes() + headroom;
    rlimit limit{address_space, address_space};
    if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(kLimitFailed);
    auto env = LmdbEnv::Open({dir, map_size});
    if (!env) ::_exit(kOpenFailed);
    auto txn = LmdbTxn::Begin((*env)->get(), nullptr, 0);
    if (!txn || !txn->Put((*env)->dbs().meta, "k", "v") || !txn->Commit()) ::_exit(kWriteFailed);
    ::_exit(kOpened);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST_CASE("lmdb_env: a map larger than the address space left falls back to a smaller one") {
  TempDir dir;
  // 8 GiB of address space to spare: the 1 TiB default is refused (ENOMEM) and halved until it
  // fits.
  CHECK(OpenLimited(dir.path() + "/data", 8ull << 30, 1ull << 40) == kOpened);
  // The same directory opens again the same way (the first child's store was kept).
  CHECK(OpenLimited(dir.path() + "/data", 8ull << 30, 1ull << 40) == kOpened);
}

}  // namespace
}  // namespace malachite::storage
