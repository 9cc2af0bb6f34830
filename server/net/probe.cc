#include "server/net/probe.h"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/url/parse.hpp>
#include <cstdio>

namespace malachite::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);
constexpr auto kTimeout = std::chrono::seconds(5);

struct Target {
  bool https = false;
  std::string host;
  std::string port;
  std::string path;
};

// Sends the GET over `stream` (connected, handshaken) and returns the status or an error text.
template <typename Stream>
asio::awaitable<std::string> Get(Stream& stream, const Target& target) {
  http::request<http::empty_body> request(http::verb::get, target.path, 11);
  request.set(http::field::host, target.host + ":" + target.port);
  request.set(http::field::connection, "close");
  auto [wec, wn] = co_await http::async_write(stream, request, kTuple);
  if (wec) co_return "write failed: " + wec.message();
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  auto [rec, rn] = co_await http::async_read(stream, buffer, response, kTuple);
  if (rec) co_return "read failed: " + rec.message();
  co_return std::to_string(response.result_int());
}

asio::awaitable<std::string> Run(const Target& target) {
  auto executor = co_await asio::this_coro::executor;
  tcp::resolver resolver(executor);
  auto [ec, endpoints] = co_await resolver.async_resolve(target.host, target.port, kTuple);
  if (ec) co_return "cannot resolve " + target.host + ": " + ec.message();
  beast::tcp_stream tcp_stream(executor);
  tcp_stream.expires_after(kTimeout);
  auto [cec, endpoint] = co_await tcp_stream.async_connect(endpoints, kTuple);
  if (cec) co_return "cannot connect: " + cec.message();
  if (!target.https) co_return co_await Get(tcp_stream, target);
  asio::ssl::context tls(asio::ssl::context::tls_client);
  tls.set_verify_mode(asio::ssl::verify_none);
  asio::ssl::stream<beast::tcp_stream> stream(std::move(tcp_stream), tls);
  SSL_set_tlsext_host_name(stream.native_handle(), target.host.c_str());
  auto [hec] = co_await stream.async_handshake(asio::ssl::stream_base::client, kTuple);
  if (hec) co_return "TLS handshake failed: " + hec.message();
  co_return co_await Get(stream, target);
}

}  // namespace

std::string SelfProbeUrl(const ServerConfig& config, std::string_view path) {
  std::string host = config.host;
  if (host.empty() || host == "0.0.0.0") host = "127.0.0.1";
  if (host == "::") host = "::1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return (config.cert_file.empty() ? "http://" : "https://") + host + ":" +
         std::to_string(config.port) + std::string(path);
}

int Probe(const std::string& url) {
  auto parsed = boost::urls::parse_uri(url);
  Target target;
  if (parsed) {
    target.https = parsed->scheme() == "https";
    target.host = parsed->host_address();
    target.port = parsed->has_port() ? std::string(parsed->port()) : target.https ? "443" : "80";
    target.path = parsed->encoded_target().empty() ? "/" : std::string(parsed->encoded_target());
  }
  if (!parsed || (!target.https && parsed->scheme() != "http") || target.host.empty()) {
    std::fprintf(stderr, "malachite --probe: '%s' is not an http(s) URL\n", url.c_str());
    return 1;
  }
  asio::io_context ioc;
  std::string outcome = "timed out";
  asio::co_spawn(ioc, Run(target), [&outcome](std::exception_ptr error, std::string result) {
    outcome = error ? "failed" : std::move(result);
  });
  ioc.run_for(kTimeout + std::chrono::seconds(1));
  if (outcome == "200") return 0;
  std::fprintf(stderr, "malachite --probe %s: %s\n", url.c_str(), outcome.c_str());
  return 1;
}

}  // namespace malachite::server
