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

// Feeds `wire` to a parser with the server's limits (LimitBodies) and `budget`.
std::string ParseLimited(std::string_view wire, BodyBudget* budget = nullptr) {
  Request request;
  RequestParser parser(request, budget);
  parser.eager(true);
  parser.LimitBodies(10, 20);
  boost::beast::error_code ec;
  parser.put(boost::asio::buffer(wire.data(), wire.size()), ec);
  if (parser.over_budget()) return "over budget";
  if (ec) return "error: " + ec.message();
  return parser.is_done() ? "body=" + request.body : "incomplete";
}

TEST_CASE("http_codec: the body limit depends on the target, $batch gets its framing slack",
          "[http]") {
  const std::string body15 = "Content-Length: 15\r\n\r\n123456789012345";
  CHECK(ParseLimited("PUT /a/t(PartitionKey='p',RowKey='r') HTTP/1.1\r\n" + body15) ==
        "error: body limit exceeded");
  CHECK(ParseLimited("POST /a/$batch HTTP/1.1\r\n" + body15) == "body=123456789012345");
  CHECK(ParseLimited("POST /a/%24Batch?x=1 HTTP/1.1\r\n" + body15) == "body=123456789012345");
  CHECK(ParseLimited("POST /a/$batchx HTTP/1.1\r\n" + body15) == "error: body limit exceeded");
  // A chunked body fails at the chunk that passes the limit, before its data arrives.
  CHECK(ParseLimited("POST /a/t HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                     "8\r\n12345678\r\n3\r\n") == "error: body limit exceeded");
  CHECK(IsBatchTarget("/devstoreaccount1/$batch"));
  CHECK(IsBatchTarget("/devstoreaccount1/%24BATCH?timeout=30"));
  CHECK(IsBatchTarget("$batch"));
  CHECK_FALSE(IsBatchTarget("/devstoreaccount1/t?$batch"));
  CHECK_FALSE(IsBatchTarget("/devstoreaccount1/xbatch"));
  CHECK_FALSE(IsBatchTarget("/devstoreaccount1/$Batch"));
  CHECK_FALSE(IsBatchTarget("/devstoreaccount1/t(PartitionKey='p',RowKey='$batch')"));
  CHECK_FALSE(IsBatchTarget("batch"));
}

TEST_CASE("http_codec: bodies are charged to the budget and given back with the parser", "[http]") {
  BodyBudget budget(12);
  {
    Request request;
    RequestParser parser(request, &budget);
    parser.eager(true);
    const std::string_view wire = "PUT /a/t HTTP/1.1\r\nContent-Length: 8\r\n\r\n12345678";
    boost::beast::error_code ec;
    parser.put(boost::asio::buffer(wire.data(), wire.size()), ec);
    CHECK_FALSE(ec);
    CHECK(budget.in_use() == 8);
    // 8 + 8 > 12: refused while the first body is held.
    CHECK(ParseLimited("PUT /a/t HTTP/1.1\r\nContent-Length: 8\r\n\r\n12345678", &budget) ==
          "over budget");
    CHECK(ParseLimited("POST /a/t HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                       "3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n",
                       &budget) == "over budget");
    CHECK(budget.in_use() == 8);
  }
  CHECK(budget.in_use() == 0);
  CHECK(ParseLimited("POST /a/t HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                     "3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n",
                     &budget) == "body=abcdef");
  CHECK(budget.in_use() == 0);
  // The first body and the chunked body's first chunk, before its second was refused.
  CHECK(budget.TakePeak() == 11);
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
