// HTTP/1.1 framing between Beast and our plain Request/Response (internal to the connection
// layer: Boost lives here, not in the public headers). The parser fills a Request directly —
// no intermediate beast::http::fields, one copy of the body — and the response head is
// serialized into one reused string written together with the body.
#pragma once

#include <boost/beast/http/basic_parser.hpp>
#include <string>

#include "server/http/message.h"

namespace malachite::server {

class RequestParser final : public boost::beast::http::basic_parser<true> {
 public:
  // Appends what it parses to `out` (method, target, headers, body). REQUIRES: `out` is empty
  // and outlives the parser.
  explicit RequestParser(Request& out) : out_(out) {}

  // 10 for HTTP/1.0, 11 for HTTP/1.1; valid once the header is done.
  int version() const { return version_; }

 private:
  using error_code = boost::beast::error_code;
  using string_view = boost::beast::string_view;

  void on_request_impl(boost::beast::http::verb, string_view method, string_view target,
                       int version, error_code&) override;
  void on_response_impl(int, string_view, int, error_code&) override {}
  void on_field_impl(boost::beast::http::field, string_view name, string_view value,
                     error_code&) override;
  void on_header_impl(error_code&) override {}
  void on_body_init_impl(const boost::optional<std::uint64_t>& content_length,
                         error_code&) override;
  std::size_t on_body_impl(string_view body, error_code&) override;
  void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, string_view body, error_code&) override;
  void on_finish_impl(error_code&) override {}

  Request& out_;
  int version_ = 11;
};

// Writes the status line and headers of `response` into `out` (replacing its content), adding
// Content-Length (omitted for 1xx/204/304, whose body must be empty) and the Connection header
// `keep_alive` calls for at `version`.
void SerializeResponseHead(const Response& response, int version, bool keep_alive,
                           std::string& out);

// True when the status forbids a body (1xx, 204, 304).
bool StatusForbidsBody(int status);

}  // namespace malachite::server
