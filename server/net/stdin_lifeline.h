// --exit-with-stdin: the server stops when its standard input ends. A launcher (the npm, NuGet
// and pytest packages) starts it with stdin a pipe whose write end only the launcher holds; the
// kernel closes that end when the launcher dies, however it dies (SIGKILL included), so the
// server never outlives the test process that started it. This works for any launcher language
// and for any depth of process tree, where PR_SET_PDEATHSIG follows the parent *thread* only
// (a .NET or Node launcher may start the server from a thread that exits early).
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <functional>
#include <string>

namespace malachite::server {

// Reads and discards standard input until end of file or a read error, then calls
// `stop(reason)` once, on `ioc`'s thread. When stdin cannot be watched asynchronously (a regular
// file, /dev/null: epoll refuses them) it reads it synchronously, which for those ends at once:
// the server stops as soon as it has started, as the flag promises for an input that has ended.
// Returns without calling `stop` when `ioc` stops first.
boost::asio::awaitable<void> WatchStdin(boost::asio::io_context& ioc,
                                        std::function<void(const std::string&)> stop);

}  // namespace malachite::server
