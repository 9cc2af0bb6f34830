// bench_reference_server: the HTTP ceiling of this machine for malachite_bench's ratios. The same
// stack as Malachite's connection layer (Boost.Beast over Asio, a coroutine per keep-alive
// connection on a strand, --threads I/O threads) reading each request whole and answering a
// fixed 200, so any cost beyond it is Malachite's own. The body is a point read's answer, or, for
// a query of an entity collection (a path ending in "()"), a feed of kRangeRows such entities:
// the size of a range query's answer, so that row's ceiling moves the same bytes.
//
//   bench_reference_server [--port 0] [--threads <cores>]
//
// Prints "reference: listening on 127.0.0.1:<port>" once bound; runs until SIGINT/SIGTERM.
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bench/bench_client.h"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
constexpr auto kToken = asio::as_tuple(asio::use_awaitable);

// About the size of a point read's answer.
constexpr std::string_view kBody =
    "{\"odata.metadata\":\"http://127.0.0.1/devstoreaccount1/$metadata#benchtable/@Element\","
    "\"odata.etag\":\"W/\\\"datetime'2024-01-01T00%3A00%3A00.0000000Z'\\\"\","
    "\"PartitionKey\":\"seed1\",\"RowKey\":\"r00000001\",\"Timestamp\":\"2024-01-01T00:00:00Z\","
    "\"Name\":\"bench\",\"Qty\":1,\"Price\":1.25,\"Active\":true,\"Payload\":\"xxxxxxxxxxxxxxxxxxxx"
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}";

// kRangeRows entities as a query answers them: the point read's entity without its metadata URL.
std::string FeedBody() {
  constexpr std::string_view kMetadata =
      "\"odata.metadata\":\"http://127.0.0.1/devstoreaccount1/$metadata#benchtable/@Element\",";
  std::string entity(kBody);
  entity.erase(1, kMetadata.size());
  std::string body =
      "{\"odata.metadata\":\"http://127.0.0.1/devstoreaccount1/$metadata#benchtable\","
      "\"value\":[";
  for (std::size_t i = 0; i < malachite::bench::kRangeRows; ++i) {
    if (i != 0) body.push_back(',');
    body += entity;
  }
  body += "]}";
  return body;
}

http::response<http::string_body> FixedResponse(std::string body) {
  http::response<http::string_body> response{http::status::ok, 11};
  response.set(http::field::content_type, "application/json;odata=minimalmetadata");
  response.set(http::field::server, "bench-reference");
  response.body() = std::move(body);
  response.prepare_payload();
  return response;
}

bool IsCollectionQuery(std::string_view target) {
  const std::string_view path = target.substr(0, target.find('?'));
  return path.size() >= 2 && path.substr(path.size() - 2) == "()";
}

asio::awaitable<void> Serve(asio::ip::tcp::socket socket) {
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer;
  http::response<http::string_body> point = FixedResponse(std::string(kBody));
  http::response<http::string_body> feed = FixedResponse(FeedBody());
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(64u << 20);
    auto [read_error, n] = co_await http::async_read(stream, buffer, parser, kToken);
    if (read_error) break;
    const auto target = parser.get().target();
    auto& response = IsCollectionQuery({target.data(), target.size()}) ? feed : point;
    response.keep_alive(parser.keep_alive());
    auto [write_error, written] = co_await http::async_write(stream, response, kToken);
    if (write_error || !parser.keep_alive()) break;
  }
  beast::error_code ignored;
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
}

asio::awaitable<void> Accept(asio::io_context& context, asio::ip::tcp::acceptor& acceptor) {
  for (;;) {
    auto [error, socket] = co_await acceptor.async_accept(asio::make_strand(context), kToken);
    if (error) {
      if (error == asio::error::operation_aborted) co_return;
      continue;
    }
    asio::ip::tcp::no_delay no_delay(true);
    socket.set_option(no_delay, error);
    auto executor = socket.get_executor();
    asio::co_spawn(executor, Serve(std::move(socket)), asio::detached);
  }
}

}  // namespace

int main(int argc, char** argv) {
  unsigned short port = 0;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (flag == "--port") {
      port = static_cast<unsigned short>(std::atoi(argv[i + 1]));
    } else if (flag == "--threads") {
      threads = static_cast<unsigned>(std::max(1, std::atoi(argv[i + 1])));
    } else {
      std::fprintf(stderr, "usage: bench_reference_server [--port 0] [--threads N]\n");
      return 2;
    }
  }
  asio::io_context context(static_cast<int>(threads));
  asio::ip::tcp::acceptor acceptor(context, {asio::ip::make_address("127.0.0.1"), port});
  asio::signal_set signals(context, SIGINT, SIGTERM);
  signals.async_wait([&](const beast::error_code&, int) {
    beast::error_code ignored;
    acceptor.close(ignored);
    context.stop();
  });
  asio::co_spawn(context, Accept(context, acceptor), asio::detached);
  std::printf("reference: listening on 127.0.0.1:%u\n",
              static_cast<unsigned>(acceptor.local_endpoint().port()));
  std::fflush(stdout);
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i) pool.emplace_back([&] { context.run(); });
  context.run();
  for (auto& thread : pool) thread.join();
  return 0;
}
