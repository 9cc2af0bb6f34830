#include "server/net/listener.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <csignal>
#include <memory>
#include <thread>
#include <vector>

#include "platform/process.h"
#include "platform/socket.h"
#include "server/net/accept_backoff.h"
#include "server/net/fd_limit.h"
#include "server/net/session.h"
#include "server/net/stdin_lifeline.h"
#include "server/net/tls_context.h"
#include "server/pipeline/failure_log.h"

namespace malachite::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);
// How long shutdown waits for in-flight requests before stopping anyway.
constexpr auto kDrainLimit = std::chrono::seconds(10);
// Idle connections closed each time accept fails (EMFILE): room for the connections waiting.
constexpr std::size_t kClosePerFailedAccept = 16;
// How long a closed console window (Windows' CTRL_CLOSE_EVENT) waits for the stop: Windows ends
// the process about 5 s after the event whatever its handler does.
constexpr unsigned kConsoleCloseGraceMs = 5000;

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
        access_log_level_(spdlog::level::from_str(config.access_log_level)),
        open_files_(RaiseOpenFileLimit()),
        connections_(ConnectionHighWater(open_files_.now)),
        body_budget_(config.body_memory_mb << 20),
        admin_access_(AdminAccess::ForConfig(config, SystemClock::Instance())),
        exit_with_stdin_(config.exit_with_stdin),
        acceptor_(ioc_),
        signals_(ioc_) {
    for (int signal : platform::StopSignals()) signals_.add(signal);
    platform::ForwardConsoleCloseToSigterm(kConsoleCloseGraceMs);
    // One single-threaded io_context per I/O thread, each connection bound to one of them
    // (round robin): a keep-alive connection's reads, handling and writes stay on one thread,
    // so a request costs no hand-off or wake-up between I/O threads (and no strand).
    for (unsigned i = 1; i < threads_; ++i) {
      workers_.push_back(std::make_unique<asio::io_context>(1));
      work_.push_back(asio::make_work_guard(*workers_.back()));
    }
  }

  // The limits in force, for the startup log.
  std::vector<std::string> Describe() const override {
    std::vector<std::string> lines;
    lines.push_back(fmt::format(
        "open files: limit {}{} (hard {}); idle keep-alive connections are closed, longest idle "
        "first, past {} connections",
        open_files_.now,
        open_files_.now != open_files_.before ? fmt::format(", raised from {}", open_files_.before)
                                              : std::string(),
        open_files_.hard == OpenFileLimit::kUnlimited ? std::string("unlimited")
                                                      : std::to_string(open_files_.hard),
        connections_.high_water()));
    lines.push_back(body_budget_.limit() == 0
                        ? std::string("request bodies in flight: no memory limit")
                        : fmt::format("request bodies in flight: up to {} MiB together ({} MiB "
                                      "for bodies over 64 KiB), then 503 ServerBusy "
                                      "(--body-memory-mb)",
                                      body_budget_.limit() >> 20,
                                      body_budget_.large_limit() >> 20));
    return lines;
  }

  // Loads the certificate when --cert is set (tls_context.h); every connection then speaks TLS.
  Result<void> LoadTls(const ServerConfig& config) {
    auto tls = MakeTlsContext(config);
    if (!tls) return tl::unexpected(tls.error());
    if (*tls) tls_.emplace(std::move(**tls));
    return {};
  }

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
        !ec &&
        !(ec = platform::PrepareListenSocket(
              static_cast<std::intptr_t>(acceptor_.native_handle()))) &&
        (acceptor_.bind(endpoint, ec), !ec)) {
      acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    }
    if (ec)
      return Fail(ErrorCode::kInternalError, "cannot listen on " + where + ": " + ec.message());
    return {};
  }

  std::uint16_t port() const override { return acceptor_.local_endpoint().port(); }

  bool secure() const override { return tls_.has_value(); }

  void Run(const Service& service, storage::Store& store, const DataEndpoints* data) override {
    shared_.emplace(service, store, timeout_);
    shared_->access_log_level = access_log_level_;
    shared_->data = data;
    shared_->jobs = &jobs_;
    shared_->body_budget = &body_budget_;
    shared_->connections = &connections_;
    shared_->admin_access = &admin_access_;
    asio::co_spawn(ioc_, Accept(), [](std::exception_ptr e) { LogException("accept loop", e); });
    asio::co_spawn(ioc_, OnceASecond(), asio::detached);
    signals_.async_wait([this](const beast::error_code& ec, int signal) {
      if (!ec) BeginStop(fmt::format("signal {}", signal));
    });
    if (exit_with_stdin_) {
      asio::co_spawn(ioc_, WatchStdin(ioc_, [this](const std::string& why) { BeginStop(why); }),
                     [](std::exception_ptr e) { LogException("stdin watch", e); });
    }
    std::vector<std::thread> pool;
    for (auto& worker : workers_) pool.emplace_back([&context = *worker] { context.run(); });
    ioc_.run();
    StopWorkers();
    for (auto& thread : pool) thread.join();
    // A job still running (a long backup) finishes before the store may close.
    jobs_.join();
    // The count of a burst's left-out failure lines, if the timer has not written it yet.
    FlushLeftOutFailures(/*now=*/true);
    LogAcceptEpisodeOver(std::chrono::steady_clock::time_point::max());
  }

 private:
  asio::awaitable<void> Accept() {
    for (;;) {
      auto [ec, socket] = co_await acceptor_.async_accept(NextContext(), kTuple);
      if (ec) {
        if (shared_->stopping.load() || ec == asio::error::operation_aborted) co_return;
        // E.g. EMFILE: free descriptors held by idle connections, then wait before retrying
        // (the pending connection keeps the acceptor readable: retrying at once would spin).
        const std::size_t closed = connections_.CloseLongestIdle(kClosePerFailedAccept);
        auto step = accept_backoff_.Failed(ec.message(), closed, std::chrono::steady_clock::now());
        if (step.log) spdlog::warn("{}", *step.log);
        asio::steady_timer pause(ioc_, step.pause);
        co_await pause.async_wait(kTuple);
        continue;
      }
      accept_backoff_.Succeeded();
      if (const std::size_t closed = connections_.Trim(); closed > 0) {
        LogNearLimit(closed);
      }
      beast::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      auto executor = socket.get_executor();
      auto on_done = [](std::exception_ptr e) { LogException("session", e); };
      if (tls_) {
        asio::co_spawn(executor,
                       RunSession(asio::ssl::stream<beast::tcp_stream>(
                                      beast::tcp_stream(std::move(socket)), *tls_),
                                  *shared_),
                       on_done);
      } else {
        asio::co_spawn(executor, RunSession(beast::tcp_stream(std::move(socket)), *shared_),
                       on_done);
      }
    }
  }

  // Once a second: after a burst of large bodies, gives the freed heap back to the system; after
  // a burst of failures, logs how many failure lines were left out (failure_log.h); after an
  // episode of failed accepts, logs that it is over.
  asio::awaitable<void> OnceASecond() {
    asio::steady_timer timer(ioc_);
    while (!shared_->stopping.load()) {
      timer.expires_after(std::chrono::seconds(1));
      co_await timer.async_wait(kTuple);
      FlushLeftOutFailures();
      LogAcceptEpisodeOver(std::chrono::steady_clock::now());
      const std::uint64_t peak = body_budget_.TakePeak();
      if (ReturnFreedMemory(peak, body_budget_.in_use())) {
        spdlog::debug("returned freed memory after {} MiB of request bodies", peak >> 20);
      }
    }
  }

  void LogAcceptEpisodeOver(std::chrono::steady_clock::time_point now) {
    if (auto line = accept_backoff_.Tick(now)) spdlog::warn("{}", *line);
  }

  // At most one line every 10 s: a flood of idle connections would otherwise flood the log.
  void LogNearLimit(std::size_t closed) {
    const auto now = std::chrono::steady_clock::now();
    closed_near_limit_ += closed;
    if (now - last_near_limit_log_ < std::chrono::seconds(10)) return;
    last_near_limit_log_ = now;
    spdlog::warn(
        "{} connections open, near the open-file limit {}: closed {} longest-idle keep-alive "
        "connections",
        connections_.size(), open_files_.now, closed_near_limit_);
    closed_near_limit_ = 0;
  }

  // The graceful stop (a signal, or the end of stdin under --exit-with-stdin): no new
  // connections, then Drain. Runs on ioc_'s thread; a second call does nothing.
  void BeginStop(const std::string& why) {
    if (shared_->stopping.exchange(true)) return;
    spdlog::info("{}: stopping (waiting for in-flight requests)", why);
    beast::error_code ignored;
    acceptor_.close(ignored);
    asio::co_spawn(ioc_, Drain(), asio::detached);
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
    StopWorkers();
  }

  // The context the next connection runs on: the I/O threads' contexts in turn.
  asio::io_context& NextContext() {
    const std::size_t index = next_context_++ % (workers_.size() + 1);
    return index == 0 ? ioc_ : *workers_[index - 1];
  }

  void StopWorkers() {
    for (auto& worker : workers_) worker->stop();
  }

  struct Shared : SessionShared {
    Shared(const Service& service, storage::Store& store, std::chrono::seconds timeout)
        : SessionShared{service, store, timeout} {}
  };

  unsigned threads_;
  std::chrono::seconds timeout_;
  spdlog::level::level_enum access_log_level_;
  OpenFileLimit open_files_;
  ConnectionRegistry connections_;
  BodyBudget body_budget_;
  AdminAccess admin_access_;
  bool exit_with_stdin_;  // --exit-with-stdin
  // Accept's near-limit log state (the accept loop is one coroutine: no lock needed).
  std::chrono::steady_clock::time_point last_near_limit_log_{};
  std::size_t closed_near_limit_ = 0;
  // Failed accepts: the pause and the episode's log lines (accept loop and timer, both on ioc_).
  AcceptBackoff accept_backoff_;
  // Set with --cert/--key. Declared before the sessions that use it (they die with ioc_).
  std::optional<asio::ssl::context> tls_;
  // Declared before ioc_: session frames (destroyed with ioc_) refer to it.
  std::optional<Shared> shared_;
  // One thread for the blocking admin jobs (reset, backup): they run one at a time.
  asio::thread_pool jobs_{1};
  // The other I/O threads' contexts, kept running by `work_` until shutdown. Declared before
  // ioc_, so destroyed after it: the accept still pending on ioc_ at shutdown holds a socket
  // already bound to one of these contexts (NextContext), and destroying that operation with
  // ioc_ must find the context's socket service alive.
  std::vector<std::unique_ptr<asio::io_context>> workers_;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> work_;
  // The first I/O thread's context: the acceptor, signals and its share of the connections.
  asio::io_context ioc_{1};
  std::size_t next_context_ = 0;  // accept loop only
  tcp::acceptor acceptor_;
  // SIGINT/SIGTERM are caught from the listener's opening, before the "listening on" line is
  // printed: one that comes before Run waits in the set and stops the server gracefully as soon
  // as Run starts, where the default action would have killed it (a launcher that stops the
  // server right after it said it listens).
  asio::signal_set signals_;
};

}  // namespace

Result<std::unique_ptr<Listener>> Listener::Open(const ServerConfig& config) {
  auto listener = std::make_unique<BeastListener>(config);
  if (auto ok = listener->LoadTls(config); !ok) return tl::unexpected(ok.error());
  if (auto ok = listener->Bind(config); !ok) return tl::unexpected(ok.error());
  return std::unique_ptr<Listener>(std::move(listener));
}

}  // namespace malachite::server
