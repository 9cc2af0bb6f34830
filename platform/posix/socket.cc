#include "platform/socket.h"

#include <sys/socket.h>
#include <sys/uio.h>

#include <array>
#include <cerrno>

namespace malachite::platform {

std::size_t TrySendNow(std::intptr_t native, std::string_view head, std::string_view body) {
  std::array<iovec, 2> parts{iovec{const_cast<char*>(head.data()), head.size()},
                             iovec{const_cast<char*>(body.data()), body.size()}};
  msghdr message{};
  message.msg_iov = parts.data();
  message.msg_iovlen = body.empty() ? 1 : 2;
  // MSG_NOSIGNAL: a peer that went away is an EPIPE for the write that follows, not a SIGPIPE.
  const ssize_t sent = ::sendmsg(static_cast<int>(native), &message, MSG_DONTWAIT | MSG_NOSIGNAL);
  return sent > 0 ? static_cast<std::size_t>(sent) : 0;
}

std::error_code PrepareListenSocket(std::intptr_t native) {
  const int on = 1;
  if (::setsockopt(static_cast<int>(native), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0) {
    return {errno, std::system_category()};
  }
  return {};
}

}  // namespace malachite::platform
