#include "server/net/fd_limit.h"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>

namespace malachite::server {
namespace {

// The kernel refuses a soft limit above fs.nr_open (1,048,576 by default).
std::uint64_t KernelMaxOpen() {
  std::ifstream in("/proc/sys/fs/nr_open");
  std::uint64_t value = 0;
  if (in >> value && value > 0) return value;
  return 1u << 20;
}

}  // namespace

OpenFileLimit RaiseOpenFileLimit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return {};
  OpenFileLimit out{limit.rlim_cur, limit.rlim_cur, limit.rlim_max};
  rlim_t wanted = limit.rlim_max;
  if (wanted == RLIM_INFINITY) wanted = KernelMaxOpen();
  if (limit.rlim_cur != RLIM_INFINITY && wanted > limit.rlim_cur) {
    rlimit raised = limit;
    raised.rlim_cur = wanted;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) out.now = wanted;
  }
  return out;
}

std::uint64_t ConnectionHighWater(std::uint64_t open_file_limit) {
  // Descriptors the process holds besides connections: stdio, the listening socket, epoll and
  // its eventfd, timerfds, the store's data, lock and flock files, a config file being read.
  constexpr std::uint64_t kOwnDescriptors = 32;
  const std::uint64_t headroom = std::max<std::uint64_t>(32, open_file_limit / 8);
  if (open_file_limit <= kOwnDescriptors + headroom) return 1;
  return open_file_limit - kOwnDescriptors - headroom;
}

}  // namespace malachite::server
