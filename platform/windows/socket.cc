#include "platform/socket.h"

namespace malachite::platform {

// Emulator: Windows sockets under Asio are completion-port sockets in blocking mode; a gather
// send that cannot wait needs FIONBIO switched on for every connection. Sending nothing here
// makes the caller write the whole answer through Asio's overlapped write, which is correct and
// costs one completion more per answer.
std::size_t TrySendNow(std::intptr_t /*native*/, std::string_view /*head*/,
                       std::string_view /*body*/) {
  return 0;
}

}  // namespace malachite::platform
