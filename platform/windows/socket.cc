#include "platform/socket.h"

#include <winsock2.h>

namespace malachite::platform {

// Emulator: Windows sockets under Asio are completion-port sockets in blocking mode; a gather
// send that cannot wait needs FIONBIO switched on for every connection. Sending nothing here
// makes the caller write the whole answer through Asio's overlapped write, which is correct and
// costs one completion more per answer.
std::size_t TrySendNow(std::intptr_t /*native*/, std::string_view /*head*/,
                       std::string_view /*body*/) {
  return 0;
}

std::error_code PrepareListenSocket(std::intptr_t native) {
  const BOOL on = TRUE;
  if (::setsockopt(static_cast<SOCKET>(native), SOL_SOCKET, SO_EXCLUSIVEADDRUSE,
                   reinterpret_cast<const char*>(&on), sizeof on) != 0) {
    return {::WSAGetLastError(), std::system_category()};
  }
  return {};
}

}  // namespace malachite::platform
