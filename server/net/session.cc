// The connection layer (ARCHITECTURE.md rule 1): the only asynchronous code. Shape follows the
// Beast coroutine examples (boost-1.81): every request gets a fresh parser with its own limits and
// a timeout; the pipeline below is plain synchronous code.
#include "server/net/session.h"

#include <spdlog/spdlog.h>

#include <array>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/detect_ssl.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http.hpp>

#include "common/limits.h"
#include "server/admin/admin_endpoints.h"
#include "server/net/http_codec.h"
#include "server/pipeline/access_log.h"

namespace malachite::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);
// Azure: spec §9.3 — bodies up to 4 MiB; the slack lets a batch's multipart framing through so
// that its handler can answer with the batch-specific error.
constexpr std::uint64_t kBodyLimit = limits::kRequestBodyMax + 64 * 1024;
// Long $filter expressions and keys travel in the request line.
constexpr std::uint32_t kHeaderLimit = 64 * 1024;
// How long and how much a connection answered early (e.g. 413 before its body was read) is
// drained before it is closed.
constexpr auto kDrainTime = std::chrono::seconds(5);
constexpr std::size_t kDrainBytes = 256 * 1024 * 1024;
// How long a TLS close_notify exchange may take at the end of a connection.
constexpr auto kTlsShutdownTime = std::chrono::seconds(2);

using TlsStream = asio::ssl::stream<beast::tcp_stream>;

// The TCP layer under `stream` (itself for plain connections): timeouts and socket calls.
template <typename Stream>
beast::tcp_stream& Tcp(Stream& stream) {
  return beast::get_lowest_layer(stream);
}

// Submits `write` to the store's group-commit writer and completes on the awaiting coroutine's
// executor (its strand) once the write is durable or failed. The writer thread only posts.
template <typename Token>
auto AsyncSubmit(storage::Store& store, storage::WriteFn write, Token&& token) {
  return asio::async_initiate<Token, void(Result<void>)>(
      [&store](auto handler, storage::WriteFn fn) {
        using Handler = decltype(handler);
        auto executor = asio::get_associated_executor(handler);
        // WriteDone is a std::function (copyable); the awaitable handler is move-only.
        auto shared = std::make_shared<Handler>(std::move(handler));
        auto work = std::make_shared<decltype(asio::make_work_guard(executor))>(
            asio::make_work_guard(executor));
        store.Submit(std::move(fn), [shared, work](Result<void> result) {
          asio::post(work->get_executor(), [shared, work, result = std::move(result)]() mutable {
            std::move (*shared)(std::move(result));
          });
        });
      },
      token, std::move(write));
}

// Runs `job` on `pool` (it may block) and completes on the awaiting coroutine's executor once it
// wrote `response`.
template <typename Token>
auto AsyncRunJob(asio::thread_pool& pool, AdminJob job, Response& response, Token&& token) {
  return asio::async_initiate<Token, void()>(
      [&pool, &response](auto handler, AdminJob work) {
        auto guard = asio::make_work_guard(asio::get_associated_executor(handler));
        asio::post(pool, [work = std::move(work), &response, handler = std::move(handler),
                          guard = std::move(guard)]() mutable {
          work(response);
          auto executor = guard.get_executor();
          asio::post(executor, std::move(handler));
        });
      },
      token, std::move(job));
}

// Errors after which nobody is left to answer. Not partial_message: a client that half-closed
// after a truncated request (fewer body bytes than its Content-Length) still reads, and gets
// 400 InvalidInput.
bool IsQuietClose(const beast::error_code& ec) {
  // stream_truncated: a TLS peer that closed without close_notify (common, harmless here).
  return ec == http::error::end_of_stream || ec == beast::error::timeout ||
         ec == asio::ssl::error::stream_truncated || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::operation_aborted ||
         ec == asio::error::broken_pipe || ec == asio::error::not_connected;
}

// Reads one request (through `parser`, into the Request it fills). Returns the error; on
// success the parser is done.
template <typename Stream>
asio::awaitable<beast::error_code> ReadRequest(Stream& stream, beast::flat_buffer& buffer,
                                               RequestParser& parser, const Request& request,
                                               std::chrono::seconds timeout) {
  Tcp(stream).expires_after(timeout);
  auto [ec, n] = co_await http::async_read_header(stream, buffer, parser, kTuple);
  if (ec) co_return ec;
  // Clients that send `Expect: 100-continue` wait for this before sending the body.
  if (auto expect = request.Find("Expect"); expect && beast::iequals(*expect, "100-continue")) {
    static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
    auto [wec, wn] = co_await asio::async_write(
        stream, asio::buffer(kContinue.data(), kContinue.size()), kTuple);
    if (wec) co_return wec;
  }
  if (!parser.is_done()) {
    auto [bec, bn] = co_await http::async_read(stream, buffer, parser, kTuple);
    if (bec) co_return bec;
  }
  co_return beast::error_code{};
}

// Writes exchange.response: the head serialized into `head`, then the body, in one gather write.
template <typename Stream>
asio::awaitable<beast::error_code> WriteResponse(Stream& stream, Response& response, int version,
                                                 bool keep_alive, std::string& head,
                                                 std::chrono::seconds timeout) {
  if (StatusForbidsBody(response.status)) response.body.clear();
  SerializeResponseHead(response, version, keep_alive, head);
  const std::array<asio::const_buffer, 2> buffers = {asio::buffer(head),
                                                     asio::buffer(response.body)};
  Tcp(stream).expires_after(timeout);
  auto [ec, n] = co_await asio::async_write(stream, buffers, kTuple);
  co_return ec;
}

// Answers a request that could not be read (413 or 400); the caller then closes.
template <typename Stream>
asio::awaitable<void> AnswerBadRequest(Stream& stream, SessionShared& shared, Exchange& exchange,
                                       std::string& head, const beast::error_code& ec) {
  const bool too_large = ec == http::error::body_limit;
  spdlog::debug("unreadable request: {}", ec.message());
  exchange.request.body.clear();
  shared.service.Fail(exchange,
                      Error{too_large ? ErrorCode::kRequestBodyTooLarge : ErrorCode::kInvalidInput,
                            {},
                            ec.message()});
  co_await WriteResponse(stream, exchange.response, 11, false, head, shared.timeout);
}

// Azure: spec §9.3 — a client that writes its whole oversized body before reading (http.client,
// Node's http, the SDKs' pipelines) must see the 413. Closing with unread bytes in the receive
// buffer sends a TCP reset, which makes that client fail with EPIPE/ECONNRESET instead; so stop
// sending, then read and discard what it still sends (bounded in time and bytes) until it closes.
// Over TLS the raw TCP bytes are discarded undecrypted: only their arrival matters.
asio::awaitable<void> DrainBeforeClose(beast::tcp_stream& stream) {
  beast::error_code ignored;
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
  std::array<char, 16 * 1024> scratch;
  std::size_t drained = 0;
  stream.expires_after(kDrainTime);
  while (drained < kDrainBytes) {
    auto [ec, n] = co_await stream.async_read_some(asio::buffer(scratch), kTuple);
    if (ec) break;
    drained += n;
  }
}

// Answers a plain-HTTP request on the HTTPS port with a 400 naming the problem, then closes.
asio::awaitable<void> AnswerPlainHttp(beast::tcp_stream& stream) {
  static constexpr std::string_view kAnswer =
      "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
      "Content-Length: 71\r\nConnection: close\r\n\r\n"
      "This port serves HTTPS: use https:// (DefaultEndpointsProtocol=https).\n";
  stream.expires_after(std::chrono::seconds(5));
  auto [ec, n] =
      co_await asio::async_write(stream, asio::buffer(kAnswer.data(), kAnswer.size()), kTuple);
  if (!ec) co_await DrainBeforeClose(stream);
}

// Runs one read request through the admin endpoints or the Table pipeline (awaiting the store
// for writes); afterwards exchange.response is complete.
asio::awaitable<void> Process(Exchange& exchange, SessionShared& shared) {
  if (IsAdminTarget(exchange.request.target)) {
    AdminJob job;
    HandleAdminRequest(exchange.request,
                       AdminContext{!shared.stopping.load(), &shared.service.traffic(),
                                    shared.jobs != nullptr ? shared.data : nullptr},
                       exchange.response, &job);
    if (job) co_await AsyncRunJob(*shared.jobs, std::move(job), exchange.response, asio::use_awaitable);
    co_return;
  }
  try {
    shared.service.Handle(exchange);
    if (exchange.write) {
      auto result =
          co_await AsyncSubmit(shared.store, std::move(exchange.write), asio::use_awaitable);
      exchange.write = nullptr;
      shared.service.Complete(exchange, std::move(result));
    }
  } catch (const std::exception& e) {
    spdlog::error("{} {}: unexpected exception: {}", exchange.request.method,
                  exchange.request.target, e.what());
    shared.service.Fail(exchange, Error{ErrorCode::kInternalError, {}, e.what()});
  }
}

void LogAccess(const Exchange& exchange, const std::string& remote,
               std::chrono::steady_clock::time_point started, spdlog::level::level_enum level) {
  // The hot path pays one level comparison unless the line is printed.
  if (!spdlog::should_log(level)) return;
  thread_local std::string line;
  line.clear();
  FormatAccessLine(exchange, remote,
                   std::chrono::duration_cast<std::chrono::microseconds>(
                       std::chrono::steady_clock::now() - started),
                   line);
  spdlog::log(level, "{}", line);
}

// The request loop shared by plain and TLS connections.
template <typename Stream>
asio::awaitable<void> Serve(Stream& stream, SessionShared& shared, bool secure) {
  // Per-connection buffers, reused by every request of the connection.
  beast::flat_buffer buffer;
  Exchange exchange;
  std::string head;
  std::string remote;
  {
    beast::error_code ec;
    auto endpoint = Tcp(stream).socket().remote_endpoint(ec);
    if (!ec) remote = endpoint.address().to_string();
  }
  for (;;) {
    exchange.Reset();
    RequestParser parser(exchange.request);
    parser.body_limit(kBodyLimit);
    parser.header_limit(kHeaderLimit);
    beast::error_code ec =
        co_await ReadRequest(stream, buffer, parser, exchange.request, shared.timeout);
    if (ec) {
      if (!IsQuietClose(ec)) {
        co_await AnswerBadRequest(stream, shared, exchange, head, ec);
        co_await DrainBeforeClose(Tcp(stream));
      }
      break;
    }
    shared.in_flight.fetch_add(1);
    const auto started = std::chrono::steady_clock::now();
    exchange.request.remote_address = remote;
    exchange.request.secure = secure;
    co_await Process(exchange, shared);
    // Fault injection (traffic_control.h): a connection closed without an answer, or an answer
    // held back by a timer (never by sleeping an I/O thread).
    if (exchange.drop_connection) {
      beast::error_code ignored;
      Tcp(stream).socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
      Tcp(stream).socket().close(ignored);
      shared.in_flight.fetch_sub(1);
      break;
    }
    if (exchange.fault_delay.count() > 0) {
      asio::steady_timer timer(co_await asio::this_coro::executor, exchange.fault_delay);
      co_await timer.async_wait(kTuple);
    }
    const bool keep_alive = parser.keep_alive() && !shared.stopping.load();
    // RFC 9110 §9.3.2: a response to HEAD carries no content; writing the (error) body would
    // desynchronise a keep-alive client, which reads the next response from those bytes.
    if (exchange.request.method == "HEAD") exchange.response.body.clear();
    beast::error_code wec = co_await WriteResponse(stream, exchange.response, parser.version(),
                                                   keep_alive, head, shared.timeout);
    LogAccess(exchange, remote, started, shared.access_log_level);
    shared.in_flight.fetch_sub(1);
    if (wec || !keep_alive) break;
  }
}

}  // namespace

asio::awaitable<void> RunSession(beast::tcp_stream stream, SessionShared& shared) {
  co_await Serve(stream, shared, false);
  beast::error_code ignored;
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
}

asio::awaitable<void> RunSession(TlsStream stream, SessionShared& shared) {
  Tcp(stream).expires_after(shared.timeout);
  // A plain-HTTP client on the HTTPS port (a connection string still saying http) gets an answer
  // that says so, instead of a reset connection.
  beast::flat_buffer buffer;
  auto [dec, is_tls] = co_await beast::async_detect_ssl(Tcp(stream), buffer, kTuple);
  if (dec) co_return;
  if (!is_tls) {
    co_await AnswerPlainHttp(Tcp(stream));
    co_return;
  }
  auto [ec, used] =
      co_await stream.async_handshake(asio::ssl::stream_base::server, buffer.data(), kTuple);
  if (ec) {
    // E.g. a client that does not trust the certificate.
    spdlog::debug("TLS handshake failed: {}", ec.message());
    co_return;
  }
  co_await Serve(stream, shared, true);
  Tcp(stream).expires_after(kTlsShutdownTime);
  auto [sec] = co_await stream.async_shutdown(kTuple);
  (void)sec;  // the peer may well have closed already
}

}  // namespace malachite::server
