// Sockets: the one call the connection layer makes past Asio. One implementation per system
// (posix/socket.cc, windows/socket.cc), chosen by CMake; see files.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <system_error>

namespace malachite::platform {

// Sends `head` then `body` on a connected socket (`native` is the socket's native handle) if it
// can without waiting, in one system call; returns the bytes sent: 0 when it would block, when
// the peer is gone, or where the system offers no such send (the caller then writes
// asynchronously).
std::size_t TrySendNow(std::intptr_t native, std::string_view head, std::string_view body);

// Readies a listening socket (`native`: its handle, opened, not yet bound) so that a restart binds
// at once but a port in use is refused. POSIX: SO_REUSEADDR (binding while the last run's
// connections sit in TIME_WAIT). Windows: SO_EXCLUSIVEADDRUSE, and never SO_REUSEADDR, which there
// lets a second server take a port that another is listening on.
std::error_code PrepareListenSocket(std::intptr_t native);

}  // namespace malachite::platform
