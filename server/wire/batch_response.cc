#include "server/wire/batch_response.h"

#include <charconv>

#include "common/encoding.h"
#include "server/wire/error_render.h"

namespace malachite::server {
namespace {

constexpr std::string_view kCrlf = "\r\n";

}  // namespace

std::string_view ReasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 202:
      return "Accepted";
    case 204:
      return "No Content";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 409:
      return "Conflict";
    case 412:
      return "Precondition Failed";
    case 413:
      return "Request Entity Too Large";
    case 415:
      return "Unsupported Media Type";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    default:
      return "Unknown";
  }
}

BatchResponseWriter::BatchResponseWriter(bool changeset, std::size_t parts)
    : changeset_(changeset), batch_boundary_("batchresponse_" + NewGuidText()) {
  // A part without an entity body (the common write answer) takes about 500 bytes.
  constexpr std::size_t kPartBytes = 640;
  body_.reserve(512 + parts * kPartBytes);
  if (changeset_) {
    part_boundary_ = "changesetresponse_" + NewGuidText();
    body_.append("--").append(batch_boundary_).append(kCrlf);
    body_.append("Content-Type: multipart/mixed; boundary=").append(part_boundary_);
    body_.append(kCrlf).append(kCrlf);
  } else {
    part_boundary_ = batch_boundary_;
  }
}

void BatchResponseWriter::BeginPart(int status, const std::optional<std::string>& content_id) {
  // Azure: spec §7.3 — each part is an application/http message with its own status line.
  body_.append("--").append(part_boundary_).append(kCrlf);
  body_.append("Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n");
  char digits[8];
  const auto printed = std::to_chars(digits, digits + sizeof digits, status).ptr;
  body_.append("HTTP/1.1 ").append(digits, printed).push_back(' ');
  body_.append(ReasonPhrase(status)).append(kCrlf);
  if (content_id) body_.append("Content-ID: ").append(*content_id).append(kCrlf);
  body_.append("X-Content-Type-Options: nosniff\r\n");
}

void BatchResponseWriter::AddPart(const Response& part,
                                  const std::optional<std::string>& content_id,
                                  std::string_view data_service_version) {
  OpenPart(part.status, content_id);
  for (const Header& header : part.headers) PartHeader(header.name, header.value);
  ClosePart(data_service_version, part.body);
}

void BatchResponseWriter::OpenPart(int status, const std::optional<std::string>& content_id) {
  BeginPart(status, content_id);
  body_.append("Cache-Control: no-cache\r\n");
}

void BatchResponseWriter::PartHeader(std::string_view name, std::string_view value) {
  body_.append(name).append(": ").append(value).append(kCrlf);
}

void BatchResponseWriter::ClosePart(std::string_view data_service_version, std::string_view body) {
  body_.append("DataServiceVersion: ").append(data_service_version).append(kCrlf);
  // Azure: spec §7.3 — blank line after the headers, the body, then the CRLF that belongs to
  // the next delimiter (real captures show "ETag: ...\r\n\r\n\r\n--changesetresponse_").
  body_.append(kCrlf).append(body).append(kCrlf);
}

void BatchResponseWriter::AddError(const Error& error, std::optional<std::size_t> index,
                                   const std::optional<std::string>& content_id,
                                   std::string_view request_id, DateTime now) {
  Error shown = error;
  if (index) {
    // Azure: spec §7.4 — message.value starts with the 0-based index of the failing operation.
    shown.message = std::to_string(*index) + ":" + std::string(error.UserMessage());
  }
  Response rendered;
  RenderError(shown, ErrorFormat::kJson, request_id, now, rendered);
  BeginPart(rendered.status, content_id);
  body_.append("DataServiceVersion: 3.0;\r\n");
  if (auto type = rendered.Find("Content-Type")) {
    body_.append("Content-Type: ").append(*type).append(kCrlf);
  }
  body_.append(kCrlf).append(rendered.body).append(kCrlf);
}

void BatchResponseWriter::Finish(Response& out) {
  if (changeset_) {
    body_.append("--").append(part_boundary_).append("--\r\n");
  }
  body_.append("--").append(batch_boundary_).append("--\r\n");
  out.status = 202;
  out.Set("Content-Type", "multipart/mixed; boundary=" + batch_boundary_);
  out.body = std::move(body_);
}

}  // namespace malachite::server
