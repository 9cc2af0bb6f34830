#include "server/net/fd_limit.h"

#include <algorithm>

namespace malachite::server {

std::uint64_t ConnectionHighWater(std::uint64_t open_file_limit) {
  // Descriptors the process holds besides connections: stdio, the listening socket, epoll and
  // its eventfd, timerfds, the store's data, lock and flock files, a config file being read.
  constexpr std::uint64_t kOwnDescriptors = 32;
  const std::uint64_t headroom = std::max<std::uint64_t>(32, open_file_limit / 8);
  if (open_file_limit <= kOwnDescriptors + headroom) return 1;
  return open_file_limit - kOwnDescriptors - headroom;
}

}  // namespace malachite::server
