// The connection layer (ARCHITECTURE.md rule 1): the only asynchronous code. Shape follows the
// Beast coroutine examples (boost-1.81): every request gets a fresh parser with its own limits and
// a timeout; the pipeline below is plain synchronous code.
#include "server/net/session.h"

#include <spdlog/spdlog.h>

#include <algorithm>
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
#include <string_view>
#include <type_traits>

#include "common/limits.h"
#include "server/admin/admin_endpoints.h"
#include "server/net/http_codec.h"
#include "server/net/local_commit.h"
#include "server/net/session_io.h"
#include "server/pipeline/access_log.h"

namespace malachite::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);
// Azure: spec §9.3 — bodies up to 4 MiB; a $batch gets slack for its multipart framing, so that
// its handler can answer with the batch-specific error.
constexpr std::uint64_t kBodyLimit = limits::kRequestBodyMax;
constexpr std::uint64_t kBatchBodyLimit = limits::kRequestBodyMax + 64 * 1024;
// Per-connection buffers above this size are given back after each request instead of being
// kept for the next one: a connection that once carried a 4 MiB body must not hold it while idle.
constexpr std::size_t kRetainedBuffer = 64 * 1024;
// A connection's read buffer once its first byte has come (it grows for larger requests, up to
// kRetainedBuffer).
constexpr std::size_t kFirstReadRoom = 4 * 1024;
// Long $filter expressions and keys travel in the request line.
constexpr std::uint32_t kHeaderLimit = 64 * 1024;
// How long a TLS close_notify exchange may take at the end of a connection.
constexpr auto kTlsShutdownTime = std::chrono::seconds(2);

using TlsStream = asio::ssl::stream<beast::tcp_stream>;

// The TCP layer under `stream` (itself for plain connections): timeouts and socket calls.
template <typename Stream>
beast::tcp_stream& Tcp(Stream& stream) {
  return beast::get_lowest_layer(stream);
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

// Gives `buffer`'s memory back when it grew past kRetainedBuffer.
void ReleaseIfLarge(std::string& buffer) {
  if (buffer.capacity() > kRetainedBuffer) std::string().swap(buffer);
}

// Beast reads a body in pieces of the buffer's free room (at least 512 bytes: read_size), each
// piece a read_some, a parser step and a completion. Room for the rest of the body, up to
// kRetainedBuffer (what a connection keeps anyway), reads a 50 KB $batch in one or two pieces
// instead of a hundred. Chunked bodies keep the default pieces.
void ReserveBodyRoom(beast::flat_buffer& buffer, const RequestParser& parser) {
  const auto remaining = parser.content_length_remaining();
  if (!remaining) return;
  const std::size_t room =
      static_cast<std::size_t>(std::min<std::uint64_t>(*remaining, kRetainedBuffer));
  if (buffer.capacity() - buffer.size() < room) buffer.reserve(buffer.size() + room);
}

// Parses the body bytes that came in `buffer` with the head (a small request arrives whole in
// one read). http::async_read would parse them too, but it completes without reading through a
// posted handler: one more turn of the event loop, with its epoll_wait, per request.
beast::error_code ParseBuffered(beast::flat_buffer& buffer, RequestParser& parser) {
  parser.eager(true);  // as http::async_read sets it: put() goes on into the body
  while (!parser.is_done() && buffer.size() > 0) {
    beast::error_code ec;
    const std::size_t used = parser.put(buffer.data(), ec);
    buffer.consume(used);
    if (ec == http::error::need_more) break;  // the rest is read below
    if (ec) return ec;
    if (used == 0) break;
  }
  return {};
}

// Reads one request (through `parser`, into the Request it fills) within the timeout of
// `deadline`, armed here: the idle wait, the head and the body together. Returns the error; on
// success the parser is done. A body the budget has no room for ends the read with
// asio::error::no_buffer_space.
template <typename Stream>
asio::awaitable<beast::error_code> ReadRequest(Stream& stream, beast::flat_buffer& buffer,
                                               RequestParser& parser, const Request& request,
                                               ConnectionDeadline& deadline,
                                               TrackedConnection& tracked) {
  tracked.MarkIdle();
  deadline.Arm();
  if (buffer.capacity() == 0) {
    // A plain connection that has sent nothing yet holds no read buffer: thousands of clients
    // that connect and wait (pools opened ahead, port probes) cost their socket and coroutine
    // frames only. Not for TLS, whose stream may already hold decrypted bytes the raw socket
    // no longer shows.
    auto [wec] = co_await Tcp(stream).socket().async_wait(asio::socket_base::wait_read, kTuple);
    if (wec) co_return wec;
    buffer.reserve(kFirstReadRoom);
  }
  auto [ec, n] = co_await http::async_read_header(stream, buffer, parser, kTuple);
  if (ec) co_return ec;
  tracked.MarkBusy();
  if (auto length = parser.content_length(); length && *length > 0) {
    if (!co_await ChargeBodyOrWait(parser, *length)) co_return asio::error::no_buffer_space;
  }
  // From here the client sends a body that may hold a share of the budget: if it stops sending,
  // the timeout answers it (408) instead of closing in silence.
  if (!parser.is_done()) deadline.AnswerOnExpiry();
  // Clients that send `Expect: 100-continue` wait for this before sending the body.
  if (auto expect = request.Find("Expect"); expect && beast::iequals(*expect, "100-continue")) {
    static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
    auto [wec, wn] = co_await asio::async_write(
        stream, asio::buffer(kContinue.data(), kContinue.size()), kTuple);
    if (wec) co_return wec;
  }
  if (!parser.is_done()) {
    if (auto pec = ParseBuffered(buffer, parser)) co_return pec;
  }
  if (!parser.is_done()) {
    ReserveBodyRoom(buffer, parser);
    auto [bec, bn] = co_await http::async_read(stream, buffer, parser, kTuple);
    if (bec) co_return bec;
  }
  co_return beast::error_code{};
}

// Writes exchange.response within the timeout of `deadline`: the head serialized into `head`,
// then the body, in one gather write.
template <typename Stream>
asio::awaitable<beast::error_code> WriteResponse(Stream& stream, Response& response, int version,
                                                 bool keep_alive, std::string& head,
                                                 ConnectionDeadline& deadline) {
  if (StatusForbidsBody(response.status)) response.body.clear();
  SerializeResponseHead(response, version, keep_alive, head);
  std::string_view head_left = head;
  std::string_view body_left = response.body;
  if constexpr (std::is_same_v<Stream, beast::tcp_stream>) {
    // A response usually fits the socket's send buffer: written here, it needs no completion
    // handler and no turn of the event loop. The rest, if any, is written asynchronously.
    std::size_t sent = SendNow(stream, head_left, body_left);
    const std::size_t from_head = std::min(sent, head_left.size());
    head_left.remove_prefix(from_head);
    body_left.remove_prefix(sent - from_head);
    if (head_left.empty() && body_left.empty()) co_return beast::error_code{};
  }
  const std::array<asio::const_buffer, 2> buffers = {
      asio::buffer(head_left.data(), head_left.size()),
      asio::buffer(body_left.data(), body_left.size())};
  deadline.Arm();
  auto [ec, n] = co_await asio::async_write(stream, buffers, kTuple);
  deadline.Disarm();
  co_return ec;
}

// The answer to a request that could not be read: 413 past the body limit, 503 ServerBusy when
// the body budget had no room, 408 when its body did not arrive in time (asio timed_out), else
// 400.
Error UnreadableRequestError(const beast::error_code& ec) {
  if (ec == asio::error::timed_out) {
    // Emulator: a body still incomplete when the request timeout passes ends with an answer
    // naming the cause, so that a stalled client (or a proxy's log) shows why, and its share of
    // the body budget goes back.
    return Error{
        ErrorCode::kRequestTimeout, {}, "the request body did not arrive within --request-timeout"};
  }
  if (ec == http::error::body_limit)
    return Error{ErrorCode::kRequestBodyTooLarge, {}, ec.message()};
  if (ec == asio::error::no_buffer_space) {
    // Emulator: load shedding by memory; the SDKs retry 503 ServerBusy with back-off.
    return Error{ErrorCode::kServerBusy,
                 "The server is busy: request bodies in flight fill its memory budget.",
                 "request bodies in flight fill --body-memory-mb"};
  }
  return Error{ErrorCode::kInvalidInput, {}, ec.message()};
}

void LogAccess(const Exchange& exchange, const std::string& remote,
               std::chrono::steady_clock::time_point started, spdlog::level::level_enum level);

// Answers a request that could not be read; the caller then closes.
template <typename Stream>
asio::awaitable<void> AnswerBadRequest(Stream& stream, SessionShared& shared, Exchange& exchange,
                                       std::string& head, ConnectionDeadline& deadline,
                                       const beast::error_code& ec, const std::string& remote) {
  const auto started = std::chrono::steady_clock::now();
  spdlog::debug("unreadable request: {}", ec.message());
  ReleaseIfLarge(exchange.request.body);
  exchange.request.body.clear();
  exchange.request.remote_address = remote;
  shared.service.Fail(exchange, UnreadableRequestError(ec));
  co_await WriteResponse(stream, exchange.response, 11, false, head, deadline);
  LogAccess(exchange, remote, started, shared.access_log_level);
}

// Runs one read request through the admin endpoints or the Table pipeline (awaiting the store
// for writes); afterwards exchange.response is complete.
asio::awaitable<void> Process(Exchange& exchange, SessionShared& shared) {
  if (IsAdminTarget(exchange.request.target)) {
    AdminJob job;
    AdminContext context{!shared.stopping.load(), &shared.service.traffic(),
                         shared.jobs != nullptr ? shared.data : nullptr, &shared.service.insight()};
    context.access = shared.admin_access;
    context.store = &shared.store;
    if (HandleAdminRequest(exchange.request, context, exchange.response, &job) ==
        AdminAnswer::kAnswered) {
      if (job) {
        co_await AsyncRunJob(*shared.jobs, std::move(job), exchange.response, asio::use_awaitable);
      }
      co_return;
    }
    // The explorer's Table API call, admitted by the admin surface: the pipeline runs it.
    exchange.explorer = true;
  }
  try {
    shared.service.Handle(exchange);
    if (exchange.write) {
      // Committed with the other writes this thread read in the same turn, on this thread when
      // the store allows (local_commit.h), else by the writer thread.
      Result<void> result =
          co_await AsyncCommit(shared.store, std::move(exchange.write), asio::use_awaitable);
      exchange.write = nullptr;
      shared.service.Complete(exchange, std::move(result));
    }
  } catch (const std::exception& e) {
    // Service::Fail logs it (failure_log.h) with the request id.
    shared.service.Fail(
        exchange,
        Error{ErrorCode::kInternalError, {}, std::string("unexpected exception: ") + e.what()});
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
asio::awaitable<void> Serve(Stream& stream, SessionShared& shared, bool secure,
                            TrackedConnection& tracked) {
  // Per-connection buffers, reused by every request of the connection.
  beast::flat_buffer buffer;
  Exchange exchange;
  std::string head;
  std::string remote;
  // Reads and writes are bounded by one per-connection timer instead of Beast's, which costs a
  // timer armed and cancelled per operation (session_io.h).
  Tcp(stream).expires_never();
  ConnectionDeadline deadline(Tcp(stream), shared.timeout);
  {
    beast::error_code ec;
    auto endpoint = Tcp(stream).socket().remote_endpoint(ec);
    // Never empty: an empty address means an in-process caller to the admin access rule.
    remote = ec ? "unknown" : endpoint.address().to_string();
  }
  // Room for a whole small request (head and a 1 KB entity) in one read; Beast's default
  // reads 512 bytes at a time. A plain connection gets it with its first byte (ReadRequest).
  if (secure) buffer.reserve(kFirstReadRoom);
  for (;;) {
    exchange.Reset();
    RequestParser parser(exchange.request, shared.body_budget);
    parser.LimitBodies(kBodyLimit, kBatchBodyLimit);
    parser.header_limit(kHeaderLimit);
    beast::error_code ec =
        co_await ReadRequest(stream, buffer, parser, exchange.request, deadline, tracked);
    if (ec) {
      if (deadline.Expired() && ec == asio::error::operation_aborted) ec = asio::error::timed_out;
      if (!IsQuietClose(ec)) {
        parser.ReleaseBodyCharge();
        co_await AnswerBadRequest(stream, shared, exchange, head, deadline, ec, remote);
        // Bounded by its own time (Beast's timeout), not by the request's.
        co_await DrainBeforeClose(Tcp(stream));
      }
      break;
    }
    // Processing is not bounded by the connection's timeout (a write waits for its commit).
    deadline.Disarm();
    shared.in_flight.fetch_add(1);
    const auto started = std::chrono::steady_clock::now();
    exchange.request.remote_address = remote;
    exchange.request.secure = secure;
    co_await Process(exchange, shared);
    // The body has been decoded and applied: its memory and its budget charge go back now, not
    // after a slow client has read the response.
    ReleaseIfLarge(exchange.request.body);
    parser.ReleaseBodyCharge();
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
                                                   keep_alive, head, deadline);
    LogAccess(exchange, remote, started, shared.access_log_level);
    shared.in_flight.fetch_sub(1);
    ReleaseIfLarge(exchange.response.body);
    if (wec || !keep_alive) break;
  }
}

}  // namespace

asio::awaitable<void> RunSession(beast::tcp_stream stream, SessionShared& shared) {
  TrackedConnection tracked(shared.connections, stream);
  co_await Serve(stream, shared, false, tracked);
  beast::error_code ignored;
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
}

asio::awaitable<void> RunSession(TlsStream stream, SessionShared& shared) {
  // Tracked from the start: a client that idles in the handshake is as closable as any.
  TrackedConnection tracked(shared.connections, Tcp(stream));
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
  co_await Serve(stream, shared, true, tracked);
  Tcp(stream).expires_after(kTlsShutdownTime);
  auto [sec] = co_await stream.async_shutdown(kTuple);
  (void)sec;  // the peer may well have closed already
}

}  // namespace malachite::server
