#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <memory>
#include <mutex>
#include <thread>

#include "platform/process.h"
#include "server/net/stdin_lifeline.h"

namespace malachite::server {

namespace asio = boost::asio;

namespace {

// What the reading thread and the watching coroutine share. `watching` turns false when the
// coroutine's frame goes (the io_context is stopping or gone): the thread then posts nothing.
struct Lifeline {
  std::mutex mutex;
  bool watching = true;
};

struct Unwatch {
  std::shared_ptr<Lifeline> lifeline;
  ~Unwatch() {
    std::lock_guard guard(lifeline->mutex);
    lifeline->watching = false;
  }
};

}  // namespace

// Windows: an anonymous pipe (what a launcher's stdin is) cannot be read with overlapped I/O, so
// Asio cannot watch it. A detached thread blocks in ReadFile until the launcher's end closes
// (ERROR_BROKEN_PIPE when the launcher dies), then posts the stop to `ioc`. The thread outlives
// the server when stdin never ends; the process's exit ends it.
asio::awaitable<void> WatchStdin(asio::io_context& ioc,
                                 std::function<void(const std::string&)> stop) {
  auto lifeline = std::make_shared<Lifeline>();
  Unwatch unwatch{lifeline};
  std::thread([lifeline, &ioc, stop = std::move(stop)] {
    const std::string why = platform::ReadStdinToEnd();
    std::lock_guard guard(lifeline->mutex);
    if (!lifeline->watching) return;
    asio::post(ioc, [lifeline, stop, why] {
      bool watching = false;
      {
        std::lock_guard inner(lifeline->mutex);
        watching = lifeline->watching;
      }
      if (watching) stop(why);
    });
  }).detach();
  // Parks the coroutine (and so `unwatch`) until the io_context stops.
  asio::steady_timer forever(ioc, asio::steady_timer::time_point::max());
  co_await forever.async_wait(asio::as_tuple(asio::use_awaitable));
}

}  // namespace malachite::server
