#include "server/net/http_codec.h"

#include <boost/beast/http/status.hpp>
#include <charconv>

namespace malachite::server {

void RequestParser::on_request_impl(boost::beast::http::verb, string_view method,
                                    string_view target, int version, error_code&) {
  out_.method.assign(method.data(), method.size());
  out_.target.assign(target.data(), target.size());
  version_ = version;
}

void RequestParser::on_field_impl(boost::beast::http::field, string_view name, string_view value,
                                  error_code&) {
  out_.headers.push_back(
      Header{std::string(name.data(), name.size()), std::string(value.data(), value.size())});
}

void RequestParser::on_body_init_impl(const boost::optional<std::uint64_t>& content_length,
                                      error_code&) {
  // Beast has already refused a Content-Length above body_limit().
  if (content_length) out_.body.reserve(static_cast<std::size_t>(*content_length));
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

void SerializeResponseHead(const Response& response, int version, bool keep_alive,
                           std::string& out) {
  out.assign(version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ");
  char number[24];
  auto end = std::to_chars(number, number + sizeof(number), response.status).ptr;
  out.append(number, end);
  out += ' ';
  const auto reason =
      boost::beast::http::obsolete_reason(static_cast<boost::beast::http::status>(response.status));
  out.append(reason.data(), reason.size());
  out += "\r\n";
  for (const auto& header : response.headers) {
    out += header.name;
    out += ": ";
    out += header.value;
    out += "\r\n";
  }
  if (!StatusForbidsBody(response.status)) {
    out += "Content-Length: ";
    end = std::to_chars(number, number + sizeof(number), response.body.size()).ptr;
    out.append(number, end);
    out += "\r\n";
  }
  if (!keep_alive && version != 10) out += "Connection: close\r\n";
  if (keep_alive && version == 10) out += "Connection: keep-alive\r\n";
  out += "\r\n";
}

}  // namespace malachite::server
