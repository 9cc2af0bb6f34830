#include "cli/table_client.h"

#include <simdjson.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <chrono>

#include "cli/trust_store.h"
#include "common/clock.h"
#include "common/datetime.h"
#include "common/encoding.h"
#include "server/auth/shared_key.h"
#include "server/http/route.h"

namespace malachite::cli {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr auto kTimeout = std::chrono::seconds(120);
// Azure: spec §2.1 — a version every SDK of the last years sends.
constexpr std::string_view kVersion = "2019-02-02";
constexpr std::uint64_t kMaxReplyBody = 256ull << 20;

std::optional<ErrorCode> CodeFromName(std::string_view name) {
  for (std::size_t i = 0; i < static_cast<std::size_t>(ErrorCode::kCount); ++i) {
    const auto code = static_cast<ErrorCode>(i);
    if (Describe(code).code == name) return code;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string_view> HttpReply::Find(std::string_view name) const {
  for (const server::Header& h : headers) {
    if (AsciiIEquals(h.name, name)) return std::string_view(h.value);
  }
  return std::nullopt;
}

Error ReplyError(const HttpReply& reply) {
  std::string code(reply.Find("x-ms-error-code").value_or(""));
  std::string message;
  simdjson::dom::parser parser;
  simdjson::dom::element error;
  if (parser.parse(reply.body).at_pointer("/odata.error").get(error) == simdjson::SUCCESS) {
    std::string_view text;
    if (error["code"].get(text) == simdjson::SUCCESS) code = std::string(text);
    if (error["message"]["value"].get(text) == simdjson::SUCCESS) message = std::string(text);
  }
  // The service's message ends with "\nRequestId:...\nTime:..." lines: keep the first.
  message = message.substr(0, message.find('\n'));
  if (code.empty()) code = "HTTP " + std::to_string(reply.status);
  if (auto known = CodeFromName(code)) return Error{*known, message, {}};
  return Error{ErrorCode::kInternalError, code + (message.empty() ? "" : ": " + message), {}};
}

struct TableClient::Connection {
  asio::io_context ioc;
  asio::ssl::context tls{asio::ssl::context::tls_client};
  std::unique_ptr<beast::tcp_stream> plain;
  std::unique_ptr<asio::ssl::stream<beast::tcp_stream>> secure;
  beast::flat_buffer buffer;

  template <typename Stream>
  Result<HttpReply> Exchange(Stream& stream, http::request<http::string_body>& request) {
    beast::get_lowest_layer(stream).expires_after(kTimeout);
    beast::error_code ec;
    http::write(stream, request, ec);
    if (ec) return Fail(ErrorCode::kInternalError, "write: " + ec.message());
    http::response_parser<http::string_body> parser;
    parser.body_limit(kMaxReplyBody);
    http::read(stream, buffer, parser, ec);
    if (ec) return Fail(ErrorCode::kInternalError, "read: " + ec.message());
    HttpReply reply;
    reply.status = static_cast<int>(parser.get().result_int());
    for (const auto& field : parser.get()) {
      reply.headers.push_back({std::string(field.name_string()), std::string(field.value())});
    }
    reply.body = std::move(parser.get().body());
    if (!parser.get().keep_alive()) {
      plain.reset();
      secure.reset();
    }
    return reply;
  }
};

TableClient::TableClient(TableEndpoint endpoint) : endpoint_(std::move(endpoint)) {
  if (auto raw = Base64Decode(endpoint_.key)) raw_key_ = std::move(*raw);
}

TableClient::~TableClient() = default;

Result<HttpReply> TableClient::SendOnce(const std::string& target,
                                        const std::vector<server::Header>& headers,
                                        std::string_view method, std::string_view body) {
  if (!connection_) {
    connection_ = std::make_unique<Connection>();
    LoadSystemTrust(connection_->tls);
    connection_->tls.set_verify_mode(asio::ssl::verify_peer);
  }
  Connection& c = *connection_;
  const std::string where = endpoint_.host + ":" + endpoint_.port;
  if (!c.plain && !c.secure) {
    beast::error_code ec;
    tcp::resolver resolver(c.ioc);
    auto endpoints = resolver.resolve(endpoint_.host, endpoint_.port, ec);
    if (ec) return Fail(ErrorCode::kInternalError, "cannot resolve " + where + ": " + ec.message());
    beast::tcp_stream stream(c.ioc);
    stream.expires_after(kTimeout);
    stream.connect(endpoints, ec);
    if (ec)
      return Fail(ErrorCode::kInternalError, "cannot connect to " + where + ": " + ec.message());
    stream.socket().set_option(tcp::no_delay(true), ec);
    if (endpoint_.https) {
      c.secure = std::make_unique<asio::ssl::stream<beast::tcp_stream>>(std::move(stream), c.tls);
      SSL_set_tlsext_host_name(c.secure->native_handle(), endpoint_.host.c_str());
      c.secure->set_verify_callback(asio::ssl::host_name_verification(endpoint_.host));
      c.secure->handshake(asio::ssl::stream_base::client, ec);
      if (ec) {
        c.secure.reset();
        return Fail(ErrorCode::kInternalError, "TLS with " + where + ": " + ec.message());
      }
    } else {
      c.plain = std::make_unique<beast::tcp_stream>(std::move(stream));
    }
  }
  http::request<http::string_body> request(http::string_to_verb(method), target, 11);
  request.method_string(method);
  for (const server::Header& h : headers) request.set(h.name, h.value);
  request.body() = std::string(body);
  request.prepare_payload();
  auto reply = c.secure ? c.Exchange(*c.secure, request) : c.Exchange(*c.plain, request);
  if (!reply) {
    c.plain.reset();
    c.secure.reset();
    return Fail(ErrorCode::kInternalError, where + ": " + reply.error().message);
  }
  return reply;
}

Result<HttpReply> TableClient::Send(std::string_view method, std::string_view path,
                                    std::string_view query, std::string_view content_type,
                                    std::string_view body,
                                    const std::vector<server::Header>& extra_headers) {
  return SendPath(method, endpoint_.base_path + std::string(path), query, content_type, body,
                  extra_headers);
}

Result<HttpReply> TableClient::SendToRoot(std::string_view method, std::string_view path,
                                          std::string_view query) {
  return SendPath(method, std::string(path), query, "", "", {});
}

Result<HttpReply> TableClient::SendPath(std::string_view method, const std::string& path,
                                        std::string_view query, std::string_view content_type,
                                        std::string_view body,
                                        const std::vector<server::Header>& extra_headers) {
  std::string target = path;
  std::string full_query(query);
  if (!endpoint_.sas.empty()) full_query += (full_query.empty() ? "" : "&") + endpoint_.sas;
  if (!full_query.empty()) target += "?" + full_query;

  server::Request request;
  request.method = std::string(method);
  request.headers = {{"x-ms-date", FormatRfc1123(SystemClock::Instance().Now())},
                     {"x-ms-version", std::string(kVersion)},
                     {"DataServiceVersion", "3.0"},
                     {"MaxDataServiceVersion", "3.0;NetFx"},
                     {"Host", endpoint_.host + ":" + endpoint_.port}};
  if (!content_type.empty()) request.headers.push_back({"Content-Type", std::string(content_type)});
  for (const server::Header& h : extra_headers) request.headers.push_back(h);
  if (endpoint_.sas.empty()) {
    server::Route route;
    route.account = endpoint_.account;
    route.raw_path = path;
    auto signature =
        server::ComputeSignature(raw_key_, server::SharedKeyStringToSign(request, route));
    if (!signature) return tl::unexpected(signature.error());
    request.headers.push_back(
        {"Authorization", "SharedKey " + endpoint_.account + ":" + *signature});
  }
  auto reply = SendOnce(target, request.headers, method, body);
  // A kept-alive connection the server closed meanwhile fails at once: try a fresh one.
  if (!reply) reply = SendOnce(target, request.headers, method, body);
  return reply;
}

}  // namespace malachite::cli
