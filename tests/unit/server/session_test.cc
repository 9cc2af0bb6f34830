// The connection layer over a real loopback socket: one RunSession served by its own io_context,
// a blocking client that behaves like the SDKs' HTTP stacks (write the whole request, then read).
#include "server/net/session.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <catch2/catch.hpp>
#include <thread>

#include "handler_harness.h"

namespace malachite::server {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// Serves exactly one connection on a free loopback port with a real Service and store.
class OneSessionServer {
 public:
  OneSessionServer() : acceptor_(ioc_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    ServerConfig config;
    config.accounts.push_back({std::string(kDevAccountName), std::string(kDevAccountKey), {}});
    service_ = std::make_unique<Service>(config, harness_.store(), harness_.clock());
    shared_ =
        std::make_unique<SessionShared>(*service_, harness_.store(), std::chrono::seconds(10));
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

// Sends `head` and `body_size` bytes of body, then reads until the server closes. Returns what
// was read, or "write failed: ..." when the server reset the connection mid-body.
std::string SendThenRead(std::uint16_t port, const std::string& head, std::size_t body_size) {
  asio::io_context ioc;
  tcp::socket socket(ioc);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  boost::system::error_code ec;
  asio::write(socket, asio::buffer(head), ec);
  const std::string chunk(64 * 1024, 'x');
  for (std::size_t sent = 0; !ec && sent < body_size; sent += chunk.size()) {
    asio::write(socket, asio::buffer(chunk), ec);
  }
  if (ec) return "write failed: " + ec.message();
  socket.shutdown(tcp::socket::shutdown_send, ec);
  std::string response;
  asio::read(socket, asio::dynamic_buffer(response), ec);
  return response;
}

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

}  // namespace
}  // namespace malachite::server
