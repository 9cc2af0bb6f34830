// The connection layer over a real loopback socket: one RunSession served by its own io_context,
// a blocking client that behaves like the SDKs' HTTP stacks (write the whole request, then read).
#include "server/net/session.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>
#include <vector>

#include "common/limits.h"
#include "server/net/body_budget.h"
#include "tests/unit/server/handler_harness.h"

namespace malachite::server {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// Serves exactly one connection on a free loopback port with a real Service and store.
class OneSessionServer {
 public:
  // With a `budget`, request bodies are charged to it (SessionShared::body_budget).
  explicit OneSessionServer(BodyBudget* budget = nullptr,
                            std::chrono::seconds timeout = std::chrono::seconds(10))
      : acceptor_(ioc_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    ServerConfig config;
    config.accounts.push_back({std::string(kDevAccountName), std::string(kDevAccountKey), {}});
    service_ = std::make_unique<Service>(config, harness_.store(), harness_.clock());
    shared_ = std::make_unique<SessionShared>(*service_, harness_.store(), timeout);
    shared_->body_budget = budget;
    asio::co_spawn(ioc_, Serve(), asio::detached);
    thread_ = std::thread([this] { ioc_.run(); });
  }
  ~OneSessionServer() {
    ioc_.stop();
    thread_.join();
  }
  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }

 private:
  asio::awaitable<void> Serve() {
    tcp::socket socket = co_await acceptor_.async_accept(asio::use_awaitable);
    co_await RunSession(boost::beast::tcp_stream(std::move(socket)), *shared_);
  }

  testing::Harness harness_;
  std::unique_ptr<Service> service_;
  std::unique_ptr<SessionShared> shared_;
  asio::io_context ioc_;
  tcp::acceptor acceptor_;
  std::thread thread_;
};

// A connected client whose reads give up after 20 s (a test waiting for an answer that never
// comes fails instead of hanging). Reads call recv(2) itself: Asio's blocking reads wait again
// when SO_RCVTIMEO expires.
struct Client {
  explicit Client(std::uint16_t port) : socket(ioc) {
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    timeval timeout{20, 0};
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  }
  // Reads more into `pending`: false at the end of input, on an error or after 20 s.
  bool ReadMore() {
    char piece[4096];
    const ssize_t n = ::recv(socket.native_handle(), piece, sizeof piece, 0);
    if (n <= 0) {
      ended = n == 0 ? "closed" : "recv failed";
      return false;
    }
    pending.append(piece, static_cast<std::size_t>(n));
    return true;
  }
  // Reads up to and including the first "\r\n\r\n" (a response without a body); empty when the
  // input ended before it.
  std::string ReadHead() {
    std::size_t end;
    while ((end = pending.find("\r\n\r\n")) == std::string::npos) {
      if (!ReadMore()) return {};
    }
    std::string head = pending.substr(0, end + 4);
    pending.erase(0, end + 4);
    return head;
  }
  // Reads until the input ends. "closed" when the server closed without sending anything more,
  // else what was read and how the input ended.
  std::string ReadToClose() {
    while (ReadMore()) {
    }
    if (ended == "closed" && pending.empty()) return ended;
    return pending + " [" + ended + "]";
  }
  asio::io_context ioc;
  tcp::socket socket;
  std::string pending;
  std::string ended;
};

// Sends `head` and `body_size` bytes of body (in 64 KiB pieces, or as chunks of that size when
// `chunked`), then, unless `keep_sending_side`, ends its sending side; reads until the server
// closes. Returns what was read, or "write failed: ..." when the server reset the connection
// mid-body. With `keep_sending_side` the answer must come without the client ending its body.
std::string SendThenRead(std::uint16_t port, const std::string& head, std::size_t body_size,
                         bool chunked = false, bool keep_sending_side = false) {
  Client client(port);
  tcp::socket& socket = client.socket;
  boost::system::error_code ec;
  asio::write(socket, asio::buffer(head), ec);
  for (std::size_t sent = 0; !ec && sent < body_size;) {
    const std::size_t n = std::min<std::size_t>(64 * 1024, body_size - sent);
    std::string piece(n, 'x');
    if (chunked) piece = fmt::format("{:x}\r\n{}\r\n", n, piece);
    asio::write(socket, asio::buffer(piece), ec);
    sent += n;
  }
  if (ec) return "write failed: " + ec.message();
  if (!keep_sending_side) socket.shutdown(tcp::socket::shutdown_send, ec);
  while (client.ReadMore()) {
  }
  return client.pending;
}

constexpr std::string_view kInsertHead =
    "POST /devstoreaccount1/mytable HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    "Accept: application/json;odata=minimalmetadata\r\nContent-Type: application/json\r\n";

TEST_CASE(
    "session: a body over 4 MiB is answered 413 RequestBodyTooLarge that a client "
    "writing its whole body still reads",
    "[session]") {
  OneSessionServer server;
  constexpr std::size_t kBody = 32 * 1024 * 1024;
  const std::string head =
      "POST /devstoreaccount1/mytable HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Accept: application/json;odata=minimalmetadata\r\nContent-Type: application/json\r\n"
      "Content-Length: " +
      std::to_string(kBody) + "\r\n\r\n";
  const std::string response = SendThenRead(server.port(), head, kBody);
  CHECK(response.substr(0, 35) == "HTTP/1.1 413 Payload Too Large\r\nCon");
  CHECK(response.find(R"({"odata.error":{"code":"RequestBodyTooLarge")") != std::string::npos);
  CHECK(response.find("Connection: close\r\n") != std::string::npos);
}

TEST_CASE(
    "session: a body shorter than its Content-Length, then end of input, is answered 400 "
    "InvalidInput",
    "[session]") {
  OneSessionServer server;
  const std::string head =
      "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Accept: application/json;odata=minimalmetadata\r\nContent-Type: application/json\r\n"
      "Content-Length: 100\r\n\r\n{\"TableName\":";
  const std::string response = SendThenRead(server.port(), head, 0);
  CHECK(response.substr(0, 26) == "HTTP/1.1 400 Bad Request\r\n");
  CHECK(response.find(R"({"odata.error":{"code":"InvalidInput")") != std::string::npos);
}

TEST_CASE("session: the answer to HEAD has no body, so a keep-alive client stays in sync",
          "[session]") {
  OneSessionServer server;
  const std::string head = "HEAD /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  const std::string response = SendThenRead(server.port(), head + head, 0);
  // Two complete heads (405, no content) and nothing else on the wire.
  CHECK(response.substr(0, 32) == "HTTP/1.1 405 Method Not Allowed\r");
  const std::size_t second = response.find("\r\n\r\nHTTP/1.1 405 Method Not Allowed\r\n");
  REQUIRE(second != std::string::npos);
  CHECK(response.find("\r\n\r\n", second + 4) == response.size() - 4);
}

TEST_CASE("session: a large body and the request pipelined right behind it are both read",
          "[session]") {
  OneSessionServer server;
  // One write: a body larger than the room reserved for reading it, then a second request.
  const std::string body(200 * 1024, 'x');
  const std::string first = std::string(kInsertHead) +
                            "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  const std::string second =
      "HEAD /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  const std::string response = SendThenRead(server.port(), first + second, 0);
  INFO(response.substr(0, 400));
  // Unsigned: the first is refused by the pipeline, once its whole body was read.
  CHECK(response.substr(0, 24) == "HTTP/1.1 403 Forbidden\r\n");
  const std::size_t next = response.find("HTTP/1.1 405 Method Not Allowed\r\n");
  REQUIRE(next != std::string::npos);
  CHECK(response.find("HTTP/1.1", next + 1) == std::string::npos);
}

TEST_CASE(
    "session: a chunked body is answered 413 RequestBodyTooLarge as soon as it passes 4 MiB, "
    "without waiting for its end",
    "[session]") {
  OneSessionServer server;
  const std::string head = std::string(kInsertHead) + "Transfer-Encoding: chunked\r\n\r\n";
  const std::string response =
      SendThenRead(server.port(), head, limits::kRequestBodyMax + 1, true, true);
  CHECK(response.substr(0, 35) == "HTTP/1.1 413 Payload Too Large\r\nCon");
  CHECK(response.find(R"({"odata.error":{"code":"RequestBodyTooLarge")") != std::string::npos);
}

TEST_CASE("session: a Content-Length over 4 MiB is answered 413 before any of the body is sent",
          "[session]") {
  OneSessionServer server;
  const std::string head = std::string(kInsertHead) +
                           "Content-Length: " + std::to_string(limits::kRequestBodyMax + 1) +
                           "\r\n\r\n";
  const std::string response = SendThenRead(server.port(), head, 0, false, true);
  CHECK(response.substr(0, 35) == "HTTP/1.1 413 Payload Too Large\r\nCon");
}

TEST_CASE(
    "session: a body the memory budget has no room for waits a second, then gets 503 "
    "ServerBusy",
    "[session]") {
  BodyBudget budget(1 << 20);
  REQUIRE(budget.TryCharge(1 << 20));  // other bodies in flight hold the whole budget
  OneSessionServer server(&budget);
  const std::string head = std::string(kInsertHead) + "Content-Length: 2\r\n\r\n";
  const auto started = std::chrono::steady_clock::now();
  const std::string response = SendThenRead(server.port(), head + "{}", 0, false, true);
  CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(900));
  CHECK(response.substr(0, 34) == "HTTP/1.1 503 Service Unavailable\r\n");
  CHECK(response.find(R"({"odata.error":{"code":"ServerBusy")") != std::string::npos);
  CHECK(budget.in_use() == 1 << 20);
}

TEST_CASE("session: a body waiting for the budget goes through once room is made", "[session]") {
  BodyBudget budget(1 << 20);
  REQUIRE(budget.TryCharge(1 << 20));
  OneSessionServer server(&budget);
  std::thread release([&budget] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    budget.Release(1 << 20);
  });
  // Unsigned: the pipeline's answer (403), not the budget's.
  const std::string body = R"({"PartitionKey":"p","RowKey":"r"})";
  const std::string head = std::string(kInsertHead) +
                           "Content-Length: " + std::to_string(body.size()) +
                           "\r\nConnection: close\r\n\r\n";
  const std::string response = SendThenRead(server.port(), head + body, 0);
  release.join();
  INFO(response);
  CHECK(response.find(R"({"odata.error":{"code":"AuthenticationFailed")") != std::string::npos);
  CHECK(budget.in_use() == 0);
}

TEST_CASE(
    "session: a connection that stays idle, or never finishes its request head, is closed "
    "without an answer once the timeout has passed, not before",
    "[session]") {
  OneSessionServer idle_server(nullptr, std::chrono::seconds(1));
  OneSessionServer slow_server(nullptr, std::chrono::seconds(1));
  // Before the connections exist: the server's clock for each starts later.
  const auto started = std::chrono::steady_clock::now();
  Client idle(idle_server.port());
  Client slow(slow_server.port());
  asio::write(slow.socket,
              asio::buffer(std::string_view("GET /devstoreaccount1/Tables HTTP/1.1\r\nHo")));
  CHECK(idle.ReadToClose() == "closed");
  CHECK(slow.ReadToClose() == "closed");
  CHECK(std::chrono::steady_clock::now() - started >= std::chrono::seconds(1));
}

TEST_CASE(
    "session: a body that stops arriving holds its budget share until the timeout, then is "
    "answered 408 RequestTimeout and its share goes back",
    "[session]") {
  BodyBudget budget(1 << 20);
  OneSessionServer server(&budget, std::chrono::seconds(1));
  Client client(server.port());
  const auto started = std::chrono::steady_clock::now();
  asio::write(client.socket, asio::buffer(std::string(kInsertHead) +
                                          "Content-Length: 1000\r\n\r\n{\"PartitionKey\""));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(budget.in_use() == 1000);
  const std::string head = client.ReadHead();
  CHECK(std::chrono::steady_clock::now() - started >= std::chrono::seconds(1));
  CHECK(head.substr(0, 30) == "HTTP/1.1 408 Request Timeout\r\n");
  CHECK(head.find("x-ms-error-code: RequestTimeout\r\n") != std::string::npos);
  CHECK(client.ReadToClose().find(R"({"odata.error":{"code":"RequestTimeout")") !=
        std::string::npos);
  CHECK(budget.in_use() == 0);
}

TEST_CASE(
    "session: a keep-alive connection that sends requests more often than the timeout stays "
    "open past it, and is closed once it idles",
    "[session]") {
  OneSessionServer server(nullptr, std::chrono::seconds(2));
  Client client(server.port());
  const std::string head = "HEAD /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  const auto started = std::chrono::steady_clock::now();
  auto last_sent = started;
  for (int i = 0; i < 7; ++i) {  // 3.5 s of requests, half a second apart
    last_sent = std::chrono::steady_clock::now();
    asio::write(client.socket, asio::buffer(head));
    INFO("request " << i);
    REQUIRE(client.ReadHead().substr(0, 32) == "HTTP/1.1 405 Method Not Allowed\r");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  CHECK(std::chrono::steady_clock::now() - started > std::chrono::seconds(3));
  CHECK(client.ReadToClose() == "closed");
  // The idle time is counted from the last answer, which came after the last request was sent.
  CHECK(std::chrono::steady_clock::now() - last_sent >= std::chrono::seconds(2));
}

TEST_CASE(
    "session: a body that arrives with its head, whole or in part, is read to its end and the "
    "request behind it is answered",
    "[session]") {
  OneSessionServer server;
  Client client(server.port());
  const std::string body =
      R"({"PartitionKey":"p","RowKey":"r","Text":")" + std::string(600, 'x') + "\"}";
  const std::string insert =
      std::string(kInsertHead) + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  const std::string head_request =
      "HEAD /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  // Whole: head, body and the next request in one write.
  asio::write(client.socket, asio::buffer(insert + body + head_request));
  // In part: the head with a third of the body; the rest, and the next request, later.
  asio::write(client.socket, asio::buffer(insert + body.substr(0, 200)));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  asio::write(client.socket, asio::buffer(body.substr(200) + head_request));
  client.socket.shutdown(tcp::socket::shutdown_send);
  // Unsigned, each insert is refused by the pipeline (403) once its body has been read; a body
  // read short or long would turn the HEAD behind it into a 400 or leave it unanswered.
  std::vector<std::string> statuses;
  for (std::string head = client.ReadHead(); !head.empty(); head = client.ReadHead()) {
    statuses.push_back(head.substr(0, head.find("\r\n")));
    // Skip the error body of a 403 (the 405 answers HEAD: no body, whatever its Content-Length).
    const std::size_t length_at = head.find("Content-Length: ");
    if (length_at != std::string::npos && statuses.back().find("403") != std::string::npos) {
      const std::size_t length = std::stoul(head.substr(length_at + 16));
      while (client.pending.size() < length && client.ReadMore()) {
      }
      client.pending.erase(0, length);
    }
  }
  CHECK(statuses ==
        std::vector<std::string>{"HTTP/1.1 403 Forbidden", "HTTP/1.1 405 Method Not Allowed",
                                 "HTTP/1.1 403 Forbidden", "HTTP/1.1 405 Method Not Allowed"});
}

TEST_CASE(
    "session: a connection silent for a while after connecting is served when it speaks, one "
    "that never speaks is closed at the request timeout",
    "[session]") {
  // A plain connection gets its read buffer only with its first byte (session.cc ReadRequest):
  // the wait before it must neither lose that byte nor outlive the timeout.
  OneSessionServer server(nullptr, std::chrono::seconds(1));
  SECTION("speaks late") {
    Client client(server.port());
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const std::string request = "HEAD /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    asio::write(client.socket, asio::buffer(request + request));
    CHECK(client.ReadHead().rfind("HTTP/1.1 405 Method Not Allowed\r\n", 0) == 0);
    CHECK(client.ReadHead().rfind("HTTP/1.1 405 Method Not Allowed\r\n", 0) == 0);
  }
  SECTION("never speaks") {
    Client client(server.port());
    const auto started = std::chrono::steady_clock::now();
    CHECK(client.ReadToClose() == "closed");
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
  }
}

TEST_CASE(
    "session: answers that fill the socket's send buffer while the client is not reading "
    "arrive whole and in order once it reads",
    "[session]") {
  OneSessionServer server;
  Client client(server.port());
  // A small receive window: the server's send buffer (at most 4 MiB by default) fills long
  // before the 12 MB of answers are all written.
  const int window = 64 * 1024;
  ::setsockopt(client.socket.native_handle(), SOL_SOCKET, SO_RCVBUF, &window, sizeof(window));
  constexpr int kRequests = 30000;
  const std::string request = "HEAD /devstoreaccount1/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  // Written from another thread: the server stops reading while its answers cannot be sent.
  std::thread writer([&] {
    std::string all;
    for (int i = 0; i < kRequests; ++i) all += request;
    boost::system::error_code ec;
    asio::write(client.socket, asio::buffer(all), ec);
    client.socket.shutdown(tcp::socket::shutdown_send, ec);
  });
  // Until the answers waiting to be read stop growing: the server's writes are blocked.
  for (int waiting = 0, now = 0; now == 0 || now != waiting;) {
    waiting = now;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::ioctl(client.socket.native_handle(), FIONREAD, &now);
  }
  int answers = 0;
  std::string first;
  for (std::string head = client.ReadHead(); !head.empty(); head = client.ReadHead()) {
    if (first.empty()) first = head;
    // Every answer is the same 405 head, up to its Date and request id.
    if (head.rfind("HTTP/1.1 405 Method Not Allowed\r\n", 0) != 0 || head.size() != first.size()) {
      FAIL_CHECK("answer " << answers << " is " << head);
      break;
    }
    ++answers;
  }
  writer.join();
  INFO("input ended: " << client.ended << "; left: " << client.pending.substr(0, 200));
  CHECK(answers == kRequests);
  CHECK(client.pending.empty());
}

}  // namespace
}  // namespace malachite::server
