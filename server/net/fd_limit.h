// The process's open-file limit (RLIMIT_NOFILE on POSIX): every connection is a descriptor, and
// the usual soft limit of 1,024 would let ~1,000 idle keep-alive connections lock everyone out.
// The limit is raised and read by platform::RaiseOpenFileLimit (platform/process.h).
#pragma once

#include <cstdint>

#include "platform/process.h"

namespace malachite::server {

using platform::OpenFileLimit;
using platform::RaiseOpenFileLimit;

// How many connections may be open before the longest-idle ones are closed: the limit minus
// the descriptors the process needs for itself (store files, epoll, timers, logs) and headroom
// for the connections accepted meanwhile (an eighth of the limit, at least 32).
std::uint64_t ConnectionHighWater(std::uint64_t open_file_limit);

}  // namespace malachite::server
