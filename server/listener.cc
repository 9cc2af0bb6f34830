#include "server/listener.h"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <csignal>
#include <thread>
#include <vector>

#include "server/session.h"

namespace malachite::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);
// How long shutdown waits for in-flight requests before stopping anyway.
constexpr auto kDrainLimit = std::chrono::seconds(10);

void LogException(std::string_view what, std::exception_ptr error) {
  if (!error) return;
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    spdlog::error("{}: {}", what, e.what());
  }
}

class BeastListener final : public Listener {
 public:
  explicit BeastListener(const ServerConfig& config)
      : threads_(std::max(1u, config.threads)),
        timeout_(config.request_timeout_seconds),
        acceptor_(ioc_) {}

  Result<void> Bind(const ServerConfig& config) {
    const std::string where = config.host + ":" + std::to_string(config.port);
    beast::error_code ec;
    tcp::resolver resolver(ioc_);
    auto endpoints = resolver.resolve(config.host, std::to_string(config.port),
                                      tcp::resolver::passive | tcp::resolver::numeric_service, ec);
    if (ec || endpoints.empty()) {
      return Fail(ErrorCode::kInternalError, "cannot resolve --host '" + config.host +
                                                 "': " + (ec ? ec.message() : "no address"));
    }
    const tcp::endpoint endpoint = endpoints.begin()->endpoint();
    if (acceptor_.open(endpoint.protocol(), ec);
        !ec && (acceptor_.set_option(asio::socket_base::reuse_address(true), ec), !ec) &&
        (acceptor_.bind(endpoint, ec), !ec)) {
      acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    }
    if (ec)
      return Fail(ErrorCode::kInternalError, "cannot listen on " + where + ": " + ec.message());
    return {};
  }

  std::uint16_t port() const override { return acceptor_.local_endpoint().port(); }

  void Run(const Service& service, storage::Store& store) override {
    shared_.emplace(service, store, timeout_);
    asio::co_spawn(ioc_, Accept(), [](std::exception_ptr e) { LogException("accept loop", e); });
    asio::signal_set signals(ioc_, SIGINT, SIGTERM);
    signals.async_wait([this](const beast::error_code& ec, int signal) {
      if (ec) return;
      spdlog::info("signal {}: stopping (waiting for in-flight requests)", signal);
      shared_->stopping.store(true);
      beast::error_code ignored;
      acceptor_.close(ignored);
      asio::co_spawn(ioc_, Drain(), asio::detached);
    });
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < threads_; ++i) pool.emplace_back([this] { ioc_.run(); });
    ioc_.run();
    for (auto& thread : pool) thread.join();
  }

 private:
  asio::awaitable<void> Accept() {
    for (;;) {
      auto [ec, socket] = co_await acceptor_.async_accept(asio::make_strand(ioc_), kTuple);
      if (ec) {
        if (shared_->stopping.load() || ec == asio::error::operation_aborted) co_return;
        // E.g. EMFILE: back off instead of spinning.
        spdlog::warn("accept failed: {}", ec.message());
        asio::steady_timer pause(ioc_, std::chrono::milliseconds(50));
        co_await pause.async_wait(kTuple);
        continue;
      }
      beast::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      auto executor = socket.get_executor();
      asio::co_spawn(executor, RunSession(beast::tcp_stream(std::move(socket)), *shared_),
                     [](std::exception_ptr e) { LogException("session", e); });
    }
  }

  // Waits (bounded) for in-flight requests, then stops the io_context.
  asio::awaitable<void> Drain() {
    const auto deadline = std::chrono::steady_clock::now() + kDrainLimit;
    asio::steady_timer timer(ioc_);
    while (shared_->in_flight.load() > 0 && std::chrono::steady_clock::now() < deadline) {
      timer.expires_after(std::chrono::milliseconds(10));
      co_await timer.async_wait(kTuple);
    }
    ioc_.stop();
  }

  struct Shared : SessionShared {
    Shared(const Service& service, storage::Store& store, std::chrono::seconds timeout)
        : SessionShared{service, store, timeout} {}
  };

  unsigned threads_;
  std::chrono::seconds timeout_;
  // Declared before ioc_: session frames (destroyed with ioc_) refer to it.
  std::optional<Shared> shared_;
  asio::io_context ioc_;
  tcp::acceptor acceptor_;
};

}  // namespace

Result<std::unique_ptr<Listener>> Listener::Open(const ServerConfig& config) {
  auto listener = std::make_unique<BeastListener>(config);
  if (auto ok = listener->Bind(config); !ok) return tl::unexpected(ok.error());
  return std::unique_ptr<Listener>(std::move(listener));
}

}  // namespace malachite::server
