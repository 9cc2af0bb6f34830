// LmdbEnv::Open under an address-space limit: the default 1 TiB map does not fit where the kernel
// or a limit gives a process less (ulimit -v, a 39-bit arm64 kernel, qemu-user), and Open must fall
// back to a smaller map instead of failing; a map that cannot grow under such a limit fails the
// store cleanly. Each case runs in a child process, whose limit cannot leak into the other tests;
// the child reports through its exit status.
#include "storage/lmdb_env.h"

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <string>

#include "common/clock.h"
#include "storage/lmdb_txn.h"
#include "storage/store.h"
#include "tests/support/temp_dir.h"

namespace malachite::storage {
namespace {

using testing::TempDir;

enum ChildExit {
  kOpened = 0,
  kOpenFailed = 1,
  kWriteFailed = 2,
  kLimitFailed = 3,
  kGrewPastLimit = 4,
  kWrongError = 5,
  kReadServed = 6,
  kLimitIgnored = 7
};

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

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
    // A map the address space refused is never grown back past what it allowed.
    if ((*env)->max_map_size() != (*env)->map_size()) ::_exit(kGrewPastLimit);
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

int ExitStatus(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

Result<void> PutBlob(Store& store, const TableInfo& table, int seq) {
  return store.Write([&](WriteContext& ctx) -> Result<void> {
    return ctx.PutEntity(table, Entity{"p",
                                       std::to_string(seq),
                                       ctx.NextTimestamp(),
                                       {{"B", EdmValue::Binary(std::string(4000, 'b'))}}});
  });
}

TEST_CASE(
    "lmdb_env: a map that cannot grow under an address-space limit fails every request with one "
    "clear error instead of crashing, closes, and a restart has every acknowledged write",
    "[storage]") {
  TempDir dir;
  StoreOptions options;
  options.data_dir = dir.path() + "/data";
  options.initial_map_size_bytes = kMiB;
  options.durability = Durability::kNone;
  const std::string acked_file = dir.path() + "/acked";
  const pid_t pid = ::fork();
  if (pid == 0) {
    auto store = Store::Open(options, SystemClock::Instance());
    if (!store) ::_exit(kOpenFailed);
    TableInfo table;
    if (!(*store)->Write([&](WriteContext& ctx) -> Result<void> {
          table = **ctx.CreateTable("acct", "Limited");
          return {};
        })) {
      ::_exit(kWriteFailed);
    }
    // 48 MiB to spare: the map grows 1, 2, ... 32 MiB, and LMDB's mapping of 64 MiB is refused
    // after it unmapped the 32 MiB map (mdb_env_set_mapsize: munmap, then mmap).
    const rlim_t address_space = MappedBytes() + 48 * kMiB;
    rlimit limit{address_space, address_space};
    if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(kLimitFailed);
    // qemu-user accepts RLIMIT_AS but does not apply it (its own address space would break):
    // a mapping past the limit that succeeds says so.
    if (void* probe = ::mmap(nullptr, 256 * kMiB, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        probe != MAP_FAILED) {
      ::munmap(probe, 256 * kMiB);
      ::_exit(kLimitIgnored);
    }
    int acked = 0;
    Result<void> put;
    while (acked < 100'000 && (put = PutBlob(**store, table, acked))) ++acked;
    std::ofstream(acked_file) << acked;
    if (put || put.error().code != ErrorCode::kInternalError ||
        put.error().message.find("could not grow") == std::string::npos) {
      ::_exit(kWrongError);
    }
    // The map is gone: a read is refused with the same error, never served from unmapped memory.
    auto view = (*store)->Read();
    if (view || view.error().message != put.error().message) ::_exit(kReadServed);
    store->reset();  // and it closes without touching the map
    ::_exit(kOpened);
  }
  const int status = ExitStatus(pid);
  if (status == kLimitIgnored) {
    WARN(
        "skipped: RLIMIT_AS is not applied here (qemu-user ignores it), so the map cannot be "
        "refused its growth");
    return;
  }
  REQUIRE(status == kOpened);
  int acked = 0;
  std::ifstream(acked_file) >> acked;
  CHECK(acked > 4000);  // well past the first growths
  auto store = Store::Open(options, SystemClock::Instance());
  REQUIRE(store);
  auto view = (*store)->Read();
  REQUIRE(view);
  auto table = (*view)->FindTable("acct", "Limited");
  REQUIRE(table);
  REQUIRE(*table);
  int found = 0;
  REQUIRE((*view)->ScanEntities(**table, {}, [&](const EntityView&) {
    ++found;
    return true;
  }));
  CHECK(found == acked);
}

}  // namespace
}  // namespace malachite::storage
