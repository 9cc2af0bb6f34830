// The process's open-file limit (RLIMIT_NOFILE): every connection is a descriptor, and the
// usual soft limit of 1,024 would let ~1,000 idle keep-alive connections lock everyone out.
#pragma once

#include <cstdint>

namespace malachite::server {

struct OpenFileLimit {
  std::uint64_t before = 0;  // the soft limit the process started with
  std::uint64_t now = 0;     // the soft limit in force (the hard limit when raising worked)
  std::uint64_t hard = 0;
};

// Raises the soft RLIMIT_NOFILE to the hard limit (capped at the kernel's fs.nr_open when the
// hard limit is unlimited) and reports both. Never fails: when raising is refused, `now` is the
// unchanged soft limit.
OpenFileLimit RaiseOpenFileLimit();

// How many connections may be open before the longest-idle ones are closed: the limit minus
// the descriptors the process needs for itself (store files, epoll, timers, logs) and headroom
// for the connections accepted meanwhile (an eighth of the limit, at least 32).
std::uint64_t ConnectionHighWater(std::uint64_t open_file_limit);

}  // namespace malachite::server
