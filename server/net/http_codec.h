// HTTP/1.1 framing between Beast and our plain Request/Response (internal to the connection
// layer: Boost lives here, not in the public headers). The parser fills a Request directly —
// no intermediate beast::http::fields, one copy of the body — and the response head is
// serialized into one reused string written together with the body.
#pragma once

#include <boost/beast/http/basic_parser.hpp>
#include <string>

#include "server/http/message.h"
#include "server/net/body_budget.h"

namespace malachite::server {

class RequestParser final : public boost::beast::http::basic_parser<true> {
 public:
  // Appends what it parses to `out` (method, target, headers, body). With a `budget`, body bytes
  // are charged to it before they are stored (a Content-Length body at once, a chunked body
  // chunk by chunk); a charge the budget refuses ends the parse with an error and
  // over_budget(). The charge is given back by ReleaseBodyCharge or the destructor.
  // REQUIRES: `out` is empty and outlives the parser; `budget` outlives it.
  explicit RequestParser(Request& out, BodyBudget* budget = nullptr) : out_(out), budget_(budget) {}
  ~RequestParser() override { ReleaseBodyCharge(); }
  RequestParser(const RequestParser&) = delete;
  RequestParser& operator=(const RequestParser&) = delete;

  // The body limit, chosen from the request-target once the request line is read: `batch` for
  // a $batch request (its multipart framing around up to 4 MiB of content), `other` for the
  // rest. Without this call, body_limit() as set applies to every request.
  void LimitBodies(std::uint64_t other, std::uint64_t batch) {
    other_limit_ = other;
    batch_limit_ = batch;
  }

  // Charges `bytes` of the coming body to the budget now (the session does so for a
  // Content-Length body before reading it, waiting for room), as a body of its Content-Length
  // (BodyBudget::TryCharge), or of what a chunked body will then have charged. False when the
  // budget refuses.
  bool ChargeBody(std::uint64_t bytes);

  // Gives the body's charge back (the body has been processed or dropped).
  void ReleaseBodyCharge();

  // True when the parse stopped because the budget refused the body.
  bool over_budget() const { return over_budget_; }

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
  void on_chunk_header_impl(std::uint64_t size, string_view, error_code& ec) override;
  std::size_t on_chunk_body_impl(std::uint64_t, string_view body, error_code&) override;
  void on_finish_impl(error_code&) override {}

  Request& out_;
  BodyBudget* budget_;
  std::uint64_t charged_ = 0;
  std::uint64_t other_limit_ = 0;  // 0: LimitBodies not called
  std::uint64_t batch_limit_ = 0;
  bool over_budget_ = false;
  int version_ = 11;
};

// True when `target` addresses $batch (the path's last segment is "$batch" or "%24batch").
bool IsBatchTarget(std::string_view target);

// Writes the status line and headers of `response` into `out` (replacing its content), adding
// Content-Length (omitted for 1xx/204/304, whose body must be empty) and the Connection header
// `keep_alive` calls for at `version`.
void SerializeResponseHead(const Response& response, int version, bool keep_alive,
                           std::string& out);

// True when the status forbids a body (1xx, 204, 304).
bool StatusForbidsBody(int status);

}  // namespace malachite::server
