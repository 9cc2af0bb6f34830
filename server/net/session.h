// One HTTP/1.1 connection (internal to listener.cc/session.cc: Boost lives here, not in the
// public headers). Reads requests with per-request parsers, limits and timeouts, runs them
// through the Service, awaits the store for writes and writes the responses. Plain TCP and TLS
// share one templated implementation in session.cc.
#pragma once

#include <spdlog/common.h>

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <chrono>

#include "server/admin/admin_access.h"
#include "server/admin/data_endpoints.h"
#include "server/net/body_budget.h"
#include "server/net/connection_registry.h"
#include "server/pipeline/service.h"
#include "storage/store.h"

namespace malachite::server {

// State shared by the listener and all sessions.
struct SessionShared {
  const Service& service;
  storage::Store& store;
  std::chrono::seconds timeout;       // per request read and keep-alive idle
  std::atomic<bool> stopping{false};  // set on shutdown: finish the current request, then close
  std::atomic<int> in_flight{0};      // requests between "read" and "written"
  // The level of the per-request access log line (ServerConfig::access_log_level); the line is
  // formatted only when the default logger would print it.
  spdlog::level::level_enum access_log_level = spdlog::level::debug;
  // The data endpoints (/-/reset, /-/backup) and the thread their blocking jobs run on; null:
  // those endpoints answer 404.
  const DataEndpoints* data = nullptr;
  boost::asio::thread_pool* jobs = nullptr;
  // The memory budget of request bodies in flight (body_budget.h). Null: not limited.
  BodyBudget* body_budget = nullptr;
  // The open connections, for closing the longest-idle ones near the open-file limit
  // (connection_registry.h). Null: not tracked.
  ConnectionRegistry* connections = nullptr;
  // Who may use the admin endpoints (admin_access.h). Null: loopback clients only.
  const AdminAccess* admin_access = nullptr;
};

// Serves `stream` until the peer closes, an error, a timeout or shutdown. Never throws.
boost::asio::awaitable<void> RunSession(boost::beast::tcp_stream stream, SessionShared& shared);

// The same over TLS: performs the server handshake (bounded by shared.timeout) first and sends
// close_notify at the end. Requests are marked Request::secure.
boost::asio::awaitable<void> RunSession(boost::asio::ssl::stream<boost::beast::tcp_stream> stream,
                                        SessionShared& shared);

}  // namespace malachite::server
