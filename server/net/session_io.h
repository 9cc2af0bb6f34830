// The connection layer's building blocks below the request loop (internal to server/net): the
// errors that end a connection quietly, draining a connection answered early, the body budget's
// wait, a connection's deadline, and its place in the registry of open connections.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "server/net/connection_registry.h"
#include "server/net/http_codec.h"

namespace malachite::server {

// Errors after which nobody is left to answer. Not partial_message: a client that half-closed
// after a truncated request (fewer body bytes than its Content-Length) still reads, and gets
// 400 InvalidInput.
bool IsQuietClose(const boost::beast::error_code& ec);

// Azure: spec §9.3 — a client that writes its whole oversized body before reading (http.client,
// Node's http, the SDKs' pipelines) must see the 413. Closing with unread bytes in the receive
// buffer sends a TCP reset, which makes that client fail with EPIPE/ECONNRESET instead; so stop
// sending, then read and discard what it still sends (bounded in time and bytes) until it closes.
// Over TLS the raw TCP bytes are discarded undecrypted: only their arrival matters.
boost::asio::awaitable<void> DrainBeforeClose(boost::beast::tcp_stream& stream);

// Writes what `tcp`'s send buffer takes now of `head` then `body`, without waiting: one
// sendmsg with MSG_DONTWAIT. Returns the bytes written; 0 also when the socket would block or
// failed (the asynchronous write of the rest meets the same error and reports it).
std::size_t SendNow(boost::beast::tcp_stream& tcp, std::string_view head, std::string_view body);

// Answers a plain-HTTP request on the HTTPS port with a 400 naming the problem, then closes.
boost::asio::awaitable<void> AnswerPlainHttp(boost::beast::tcp_stream& stream);

// Charges a Content-Length body to the budget before it is read, waiting up to a second for
// room (back-pressure: meanwhile the client's bytes wait in TCP buffers). False when it stayed
// full.
boost::asio::awaitable<bool> ChargeBodyOrWait(RequestParser& parser, std::uint64_t length);

// The deadline of a connection's reads and writes, kept by one timer per connection. Beast's
// per-operation timeouts (tcp_stream::expires_after) arm and cancel a timer, under the reactor's
// mutex, around every read and every write; here Arm and Disarm only store a time, and the
// timer, started once, looks at it when it fires: past an armed deadline it closes the
// connection (the pending read or write ends with operation_aborted); otherwise it waits again,
// until the deadline or, while disarmed, for one more timeout.
class ConnectionDeadline {
 public:
  // Starts the timer. REQUIRES: constructed and destroyed on the session's executor; `tcp`
  // outlives it; `tcp`'s own timeouts are off (expires_never) while this one is armed.
  ConnectionDeadline(boost::beast::tcp_stream& tcp, std::chrono::steady_clock::duration timeout);
  ~ConnectionDeadline();
  ConnectionDeadline(const ConnectionDeadline&) = delete;
  ConnectionDeadline& operator=(const ConnectionDeadline&) = delete;

  // The connection is closed unless Disarm or Arm is called within the timeout from now.
  void Arm();
  // No deadline until the next Arm (while a request is processed, the socket is not used).
  void Disarm();
  // Until the next Arm or Disarm, the deadline's passing cancels the pending operation (it ends
  // with operation_aborted) and makes Expired() true, instead of closing the connection: the
  // session can still answer a request whose body did not arrive in time. Afterwards the
  // deadline is disarmed, as after Disarm.
  void AnswerOnExpiry();
  // True once a deadline set to answer (AnswerOnExpiry) has passed.
  bool Expired() const;

 private:
  struct State;
  // Waits until `at`, then closes the connection or waits again.
  static void Wait(const std::shared_ptr<State>& state, std::chrono::steady_clock::time_point at);
  std::shared_ptr<State> state_;
};

// The session's place in shared.connections (when tracked): the registry may ask it to close
// while it waits for a request; the close runs on the session's own executor, and not at all
// once the session has ended.
class TrackedConnection {
 public:
  // Registers `tcp` in `connections` (nothing when null). REQUIRES: constructed and destroyed
  // on the session's executor, and `tcp` outlives it.
  TrackedConnection(ConnectionRegistry* connections, boost::beast::tcp_stream& tcp);
  ~TrackedConnection();
  TrackedConnection(const TrackedConnection&) = delete;
  TrackedConnection& operator=(const TrackedConnection&) = delete;
  void MarkIdle() {
    if (registration_) registration_->MarkIdle();
  }
  void MarkBusy() {
    if (registration_) registration_->MarkBusy();
  }

 private:
  std::shared_ptr<boost::beast::tcp_stream*> stream_;  // null once the session ended
  std::optional<ConnectionRegistry::Registration> registration_;
};

}  // namespace malachite::server
