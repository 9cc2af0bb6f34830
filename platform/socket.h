// Sockets: the one call the connection layer makes past Asio. One implementation per system
// (posix/socket.cc, windows/socket.cc), chosen by CMake; see files.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace malachite::platform {

// Sends `head` then `body` on a connected socket (`native` is the socket's native handle) if it
// can without waiting, in one system call; returns the bytes sent: 0 when it would block, when
// the peer is gone, or where the system offers no such send (the caller then writes
// asynchronously).
std::size_t TrySendNow(std::intptr_t native, std::string_view head, std::string_view body);

}  // namespace malachite::platform
