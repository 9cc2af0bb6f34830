#include "server/net/http_codec.h"

#include <boost/asio/buffer.hpp>
#include <catch2/catch.hpp>

namespace malachite::server {
namespace {

// Feeds `wire` to a RequestParser in one piece; returns "error: <message>" or a dump.
std::string Parse(std::string_view wire, std::uint64_t body_limit = 1024) {
  Request request;
  RequestParser parser(request);
  parser.eager(true);
  parser.body_limit(body_limit);
  boost::beast::error_code ec;
  parser.put(boost::asio::buffer(wire.data(), wire.size()), ec);
  if (ec) return "error: " + ec.message();
  if (!parser.is_done()) return "incomplete";
  std::string out = request.method + " " + request.target + " HTTP/" +
                    std::to_string(parser.version()) +
                    (parser.keep_alive() ? " keep-alive" : " close");
  for (const auto& header : request.headers) out += "\n" + header.name + "=" + header.value;
  return out + "\nbody=" + request.body;
}

}  // namespace

TEST_CASE("http_codec: the parser fills method, target, headers and body", "[http]") {
  CHECK(Parse("MERGE /acct/t(PartitionKey='a',RowKey='b') HTTP/1.1\r\nHost: x\r\n"
              "If-Match: *\r\nContent-Length: 2\r\n\r\n{}") ==
        "MERGE /acct/t(PartitionKey='a',RowKey='b') HTTP/11 keep-alive\nHost=x\nIf-Match=*\n"
        "Content-Length=2\nbody={}");
  CHECK(Parse("POST /a/$batch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
              "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n") ==
        "POST /a/$batch HTTP/11 keep-alive\nHost=x\nTransfer-Encoding=chunked\nbody=abcde");
  CHECK(Parse("GET /a/Tables HTTP/1.0\r\n\r\n") == "GET /a/Tables HTTP/10 close\nbody=");
}

TEST_CASE("http_codec: oversized bodies and garbage are parse errors", "[http]") {
  CHECK(Parse("POST /a/t HTTP/1.1\r\nContent-Length: 2000\r\n\r\n") ==
        "error: body limit exceeded");
  CHECK(Parse("NOT HTTP\r\n\r\n").rfind("error: ", 0) == 0);
}

TEST_CASE("http_codec: the response head carries headers, Content-Length and Connection",
          "[http]") {
  Response response;
  response.status = 201;
  response.headers = {{"ETag", "W/\"x\""}, {"x-ms-version", "2019-02-02"}};
  response.body = "{}";
  std::string head;
  SerializeResponseHead(response, 11, true, head);
  CHECK(head ==
        "HTTP/1.1 201 Created\r\nETag: W/\"x\"\r\nx-ms-version: 2019-02-02\r\nContent-Length: "
        "2\r\n\r\n");
  response.status = 204;
  response.headers.clear();
  SerializeResponseHead(response, 11, false, head);
  CHECK(head == "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n");
  response.status = 404;
  response.body.clear();
  SerializeResponseHead(response, 10, true, head);
  CHECK(head == "HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n");
}

}  // namespace malachite::server
