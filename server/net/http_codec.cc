#include "server/net/http_codec.h"

#include <boost/asio/error.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/status.hpp>
#include <charconv>
#include <cstring>

namespace malachite::server {

bool IsBatchTarget(std::string_view target) {
  const std::string_view path = target.substr(0, target.find('?'));
  // Most targets are not: a look at the end spares scanning an entity path back to its '/'.
  if (path.size() < 6 || !boost::beast::iequals(path.substr(path.size() - 5), "batch")) {
    return false;
  }
  const std::string_view last = path.substr(path.rfind('/') + 1);
  return last == "$batch" || boost::beast::iequals(last, "%24batch");
}

void RequestParser::on_request_impl(boost::beast::http::verb, string_view method,
                                    string_view target, int version, error_code&) {
  out_.method.assign(method.data(), method.size());
  out_.target.assign(target.data(), target.size());
  version_ = version;
  // Azure: spec §9.3 — so that a body over the limit is refused as soon as it passes it (a
  // Content-Length at once, a chunked body at the chunk that crosses it).
  if (other_limit_ != 0) {
    body_limit(IsBatchTarget(out_.target) ? batch_limit_ : other_limit_);
  }
}

bool RequestParser::ChargeBody(std::uint64_t bytes) {
  if (budget_ == nullptr || bytes == 0) return true;
  // A Content-Length body is charged whole (its size is the class, body_budget.h); a chunked
  // one chunk by chunk, its class the size it has reached.
  const auto length = content_length();
  if (!budget_->TryCharge(bytes, length ? *length : charged_ + bytes)) return false;
  charged_ += bytes;
  return true;
}

void RequestParser::ReleaseBodyCharge() {
  if (budget_ != nullptr && charged_ != 0) budget_->Release(charged_);
  charged_ = 0;
}

void RequestParser::on_field_impl(boost::beast::http::field, string_view name, string_view value,
                                  error_code&) {
  out_.headers.push_back(
      Header{std::string(name.data(), name.size()), std::string(value.data(), value.size())});
}

void RequestParser::on_body_init_impl(const boost::optional<std::uint64_t>& content_length,
                                      error_code& ec) {
  // Beast has already refused a Content-Length above body_limit().
  if (!content_length) return;
  if (*content_length > charged_ && !ChargeBody(*content_length - charged_)) {
    over_budget_ = true;
    ec = boost::asio::error::no_buffer_space;
    return;
  }
  out_.body.reserve(static_cast<std::size_t>(*content_length));
}

void RequestParser::on_chunk_header_impl(std::uint64_t size, string_view, error_code& ec) {
  // Beast has already refused a chunk that passes body_limit().
  if (!ChargeBody(size)) {
    over_budget_ = true;
    ec = boost::asio::error::no_buffer_space;
  }
}

std::size_t RequestParser::on_body_impl(string_view body, error_code&) {
  out_.body.append(body.data(), body.size());
  return body.size();
}

std::size_t RequestParser::on_chunk_body_impl(std::uint64_t, string_view body, error_code&) {
  out_.body.append(body.data(), body.size());
  return body.size();
}

bool StatusForbidsBody(int status) {
  return (status >= 100 && status < 200) || status == 204 || status == 304;
}

namespace {

// Copies `text` to `at`; returns the end of the copy. An empty view may have no data at all,
// which memcpy must not be given even for zero bytes.
char* Put(char* at, std::string_view text) {
  if (!text.empty()) std::memcpy(at, text.data(), text.size());
  return at + text.size();
}

}  // namespace

// The head is measured, then written into the reused string with plain copies: a dozen headers
// appended piece by piece cost a capacity check and a length update per piece.
void SerializeResponseHead(const Response& response, int version, bool keep_alive,
                           std::string& out) {
  char status[24];
  const std::string_view status_text(
      status, std::to_chars(status, status + sizeof(status), response.status).ptr - status);
  const auto reason =
      boost::beast::http::obsolete_reason(static_cast<boost::beast::http::status>(response.status));
  const std::string_view reason_text(reason.data(), reason.size());
  char length[24];
  std::string_view length_text;
  if (!StatusForbidsBody(response.status)) {
    length_text = std::string_view(
        length, std::to_chars(length, length + sizeof(length), response.body.size()).ptr - length);
  }
  std::string_view connection;
  if (!keep_alive && version != 10) connection = "Connection: close\r\n";
  if (keep_alive && version == 10) connection = "Connection: keep-alive\r\n";
  constexpr std::string_view kContentLength = "Content-Length: ";

  std::size_t size = 9 + status_text.size() + 1 + reason_text.size() + 2;
  for (const auto& header : response.headers) size += header.name.size() + header.value.size() + 4;
  if (!length_text.empty()) size += kContentLength.size() + length_text.size() + 2;
  size += connection.size() + 2;
  out.resize(size);

  char* at = Put(out.data(), version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ");
  at = Put(at, status_text);
  *at++ = ' ';
  at = Put(at, reason_text);
  at = Put(at, "\r\n");
  for (const auto& header : response.headers) {
    at = Put(at, header.name);
    at = Put(at, ": ");
    at = Put(at, header.value);
    at = Put(at, "\r\n");
  }
  if (!length_text.empty()) {
    at = Put(at, kContentLength);
    at = Put(at, length_text);
    at = Put(at, "\r\n");
  }
  at = Put(at, connection);
  Put(at, "\r\n");
}

}  // namespace malachite::server
