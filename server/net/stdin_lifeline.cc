#include "server/net/stdin_lifeline.h"

#include <unistd.h>

#include <array>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "platform/process.h"

namespace malachite::server {

namespace asio = boost::asio;

asio::awaitable<void> WatchStdin(asio::io_context& ioc,
                                 std::function<void(const std::string&)> stop) {
  // A duplicate, so closing the descriptor object at shutdown leaves fd 0 itself alone.
  const int fd = ::dup(STDIN_FILENO);
  if (fd < 0) {
    stop("standard input is closed");
    co_return;
  }
  asio::posix::stream_descriptor input(ioc, fd);
  std::array<char, 4096> buffer{};
  for (;;) {
    auto [ec, n] =
        co_await input.async_read_some(asio::buffer(buffer), asio::as_tuple(asio::use_awaitable));
    if (!ec) continue;
    if (ec == asio::error::operation_aborted) co_return;  // the server is stopping anyway
    if (ec == asio::error::eof) {
      stop("standard input ended");
    } else if (ec == boost::system::errc::operation_not_permitted) {
      stop(platform::ReadStdinToEnd());  // EPERM from epoll_ctl: a regular file or /dev/null
    } else {
      stop("standard input failed: " + ec.message());
    }
    co_return;
  }
}

}  // namespace malachite::server
