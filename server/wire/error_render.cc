#include "server/wire/error_render.h"

#include "common/datetime.h"
#include "common/encoding.h"
#include "server/wire/json_writer.h"
#include "server/wire/xml_util.h"

namespace malachite::server {
namespace {

constexpr std::string_view kJsonErrorType =
    "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";

// True when any comma-separated media type in `list` is application/json (parameters ignored).
bool ListsJson(std::string_view list) {
  while (!list.empty()) {
    std::size_t comma = list.find(',');
    std::string_view entry = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    entry = entry.substr(0, entry.find(';'));
    while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
    while (!entry.empty() && entry.back() == ' ') entry.remove_suffix(1);
    // Media types are case-insensitive (RFC 9110 §8.3.1), as NegotiateMetadata treats them.
    if (AsciiIEquals(entry, "application/json")) {
      return true;
    }
  }
  return false;
}

bool IsAuthError(ErrorCode code) {
  return code == ErrorCode::kAuthenticationFailed ||
         code == ErrorCode::kInvalidAuthenticationInfo ||
         code == ErrorCode::kInvalidAuthenticationInfoBearer ||
         code == ErrorCode::kNoAuthenticationInformation;
}

}  // namespace

ErrorFormat ChooseErrorFormat(const Request& request, const Route* route, const Error& error) {
  const bool xml_op = route != nullptr && IsXmlOperation(route->op);
  const std::string* format = route != nullptr ? route->query.Find("$format") : nullptr;
  auto accept = request.Find("Accept");
  bool json = false;
  if (format != nullptr) {
    json = ListsJson(*format) || *format == "json";
  } else if (accept && !accept->empty()) {
    json = ListsJson(*accept);
  } else {
    // Emulator: with no Accept at all, answer in the family the operation speaks.
    json = !xml_op;
  }
  if (json && !xml_op) return ErrorFormat::kJson;
  // Azure: spec §8.1 — m:error for table-level operations, <Error> for the service level and
  // for authentication failures.
  if (route == nullptr || IsAuthError(error.code) || route->table.empty()) {
    return ErrorFormat::kStorageXml;
  }
  return ErrorFormat::kODataXml;
}

void RenderError(const Error& error, ErrorFormat format, std::string_view request_id, DateTime now,
                 Response& out) {
  const std::string_view code = error.AzureCode();
  const std::string time = FormatIso8601Fixed7(now);
  out.status = error.HttpStatus();
  out.body.clear();
  std::string& body = out.body;
  if (format == ErrorFormat::kJson) {
    body.reserve(160 + error.UserMessage().size());
    body += R"({"odata.error":{"code":")";
    AppendJsonEscaped(body, ToValidUtf8(code));
    body += R"(","message":{"lang":"en-US","value":")";
    AppendJsonEscaped(body, ToValidUtf8(error.UserMessage()));
    body += "\\nRequestId:";
    body += request_id;
    body += "\\nTime:";
    body += time;
    body += "\"}}}";
    out.Set("Content-Type", std::string(kJsonErrorType));
  } else {
    const bool odata = format == ErrorFormat::kODataXml;
    body += R"(<?xml version="1.0" encoding="utf-8"?>)";
    body +=
        odata
            ? R"(<m:error xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><m:code>)"
            : "<Error><Code>";
    body += code;
    body += odata ? R"(</m:code><m:message xml:lang="en-US">)" : "</Code><Message>";
    AppendXmlText(body, error.UserMessage());
    body += "\nRequestId:";
    body += request_id;
    body += "\nTime:";
    body += time;
    body += odata ? "</m:message>" : "</Message>";
    // Azure: spec §10.9 — a rejected bearer token says why in the same element.
    const bool has_detail = error.code == ErrorCode::kAuthenticationFailed ||
                            error.code == ErrorCode::kInvalidAuthenticationInfoBearer;
    if (has_detail && !error.detail.empty()) {
      body += "<AuthenticationErrorDetail>";
      AppendXmlText(body, error.detail);
      body += "</AuthenticationErrorDetail>";
    }
    body += odata ? "</m:error>" : "</Error>";
    out.Set("Content-Type", "application/xml");
  }
  // Azure: spec §2.2 — the real service omits it on JSON errors; sending it always is harmless
  // and lets clients that read only headers see the code.
  out.Set("x-ms-error-code", std::string(code));
}

}  // namespace malachite::server
