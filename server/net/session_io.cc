#include "server/net/session_io.h"

#include <array>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/socket_base.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>
#include <chrono>

#include "platform/socket.h"

namespace malachite::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);
// How long and how much a connection answered early (e.g. 413 before its body was read) is
// drained before it is closed.
constexpr auto kDrainTime = std::chrono::seconds(5);
constexpr std::size_t kDrainBytes = 256 * 1024 * 1024;
// How long a Content-Length body waits for room in the body budget before 503 ServerBusy.
constexpr auto kBudgetWait = std::chrono::seconds(1);
constexpr auto kBudgetPoll = std::chrono::milliseconds(10);

}  // namespace

// Errors after which nobody is left to answer. Not partial_message: a client that half-closed
// after a truncated request (fewer body bytes than its Content-Length) still reads, and gets
// 400 InvalidInput.
bool IsQuietClose(const beast::error_code& ec) {
  // stream_truncated: a TLS peer that closed without close_notify (common, harmless here).
  return ec == http::error::end_of_stream || ec == beast::error::timeout ||
         ec == asio::ssl::error::stream_truncated || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::operation_aborted ||
         ec == asio::error::broken_pipe || ec == asio::error::not_connected ||
         ec == asio::error::bad_descriptor;  // closed by the registry between two reads
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

std::size_t SendNow(beast::tcp_stream& tcp, std::string_view head, std::string_view body) {
  return platform::TrySendNow(static_cast<std::intptr_t>(tcp.socket().native_handle()), head, body);
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

// Charges a Content-Length body to the budget before it is read, waiting up to kBudgetWait for
// room (back-pressure: meanwhile the client's bytes wait in TCP buffers). False when it stayed
// full.
asio::awaitable<bool> ChargeBodyOrWait(RequestParser& parser, std::uint64_t length) {
  if (parser.ChargeBody(length)) co_return true;
  asio::steady_timer timer(co_await asio::this_coro::executor);
  for (auto waited = std::chrono::milliseconds(0); waited < kBudgetWait; waited += kBudgetPoll) {
    timer.expires_after(kBudgetPoll);
    co_await timer.async_wait(kTuple);
    if (parser.ChargeBody(length)) co_return true;
  }
  co_return false;
}

struct ConnectionDeadline::State {
  State(beast::tcp_stream& stream, std::chrono::steady_clock::duration wait)
      : tcp(&stream), timer(stream.get_executor()), timeout(wait) {}
  beast::tcp_stream* tcp;  // null once the session ended
  asio::steady_timer timer;
  std::chrono::steady_clock::duration timeout;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  bool answer = false;   // AnswerOnExpiry: cancel instead of close
  bool expired = false;  // a deadline set to answer has passed
};

// The handler owns the state: it may run after the session ended (a timer that fired just before
// ~ConnectionDeadline), and then does nothing.
void ConnectionDeadline::Wait(const std::shared_ptr<State>& state,
                              std::chrono::steady_clock::time_point at) {
  state->timer.expires_at(at);
  state->timer.async_wait([state](const beast::error_code& ec) {
    if (ec || state->tcp == nullptr) return;
    const auto now = std::chrono::steady_clock::now();
    if (state->deadline <= now) {
      if (!state->answer) {
        // As Beast's timeout does: the pending operation ends, the session sees it and closes.
        state->tcp->close();
        return;
      }
      // The session answers first, within a timeout of its own (its write Arms again).
      state->tcp->cancel();
      state->expired = true;
      state->answer = false;
      state->deadline = std::chrono::steady_clock::time_point::max();
      Wait(state, now + state->timeout);
      return;
    }
    const bool armed = state->deadline != std::chrono::steady_clock::time_point::max();
    Wait(state, armed ? state->deadline : now + state->timeout);
  });
}

ConnectionDeadline::ConnectionDeadline(beast::tcp_stream& tcp,
                                       std::chrono::steady_clock::duration timeout)
    : state_(std::make_shared<State>(tcp, timeout)) {
  Wait(state_, std::chrono::steady_clock::now() + timeout);
}

ConnectionDeadline::~ConnectionDeadline() {
  state_->tcp = nullptr;
  state_->timer.cancel();
}

// The timer fires no earlier than the deadline it last saw, and a later Arm only moves the
// deadline later (one timeout for the whole connection), so the close is never early, and never
// late by more than the time the fired handler waits to run.
void ConnectionDeadline::Arm() {
  state_->deadline = std::chrono::steady_clock::now() + state_->timeout;
  state_->answer = false;
}

void ConnectionDeadline::Disarm() {
  state_->deadline = std::chrono::steady_clock::time_point::max();
  state_->answer = false;
}

void ConnectionDeadline::AnswerOnExpiry() { state_->answer = true; }

bool ConnectionDeadline::Expired() const { return state_->expired; }

TrackedConnection::TrackedConnection(ConnectionRegistry* connections, beast::tcp_stream& tcp) {
  if (connections == nullptr) return;
  stream_ = std::make_shared<beast::tcp_stream*>(&tcp);
  registration_.emplace(*connections,
                        [executor = tcp.get_executor(), weak = std::weak_ptr(stream_)] {
                          asio::post(executor, [weak] {
                            auto stream = weak.lock();
                            if (!stream || *stream == nullptr) return;
                            beast::error_code ignored;
                            (*stream)->socket().shutdown(asio::socket_base::shutdown_both, ignored);
                            (*stream)->close();
                          });
                        });
}

TrackedConnection::~TrackedConnection() {
  if (stream_) *stream_ = nullptr;
}

}  // namespace malachite::server
