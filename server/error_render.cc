#include "server/error_render.h"

#include "common/datetime.h"
#include "common/encoding.h"

namespace malachite::server {
namespace {

constexpr std::string_view kJsonErrorType =
    "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Azure: spec §8.1 — error bodies are UTF-8 JSON or XML. Messages may quote hostile input (an
// If-Match value, a $filter, a string-to-sign), so invalid UTF-8 bytes become U+FFFD instead of
// making the whole body unparsable for the client.
std::string ValidUtf8(std::string_view text) {
  if (IsValidUtf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t len = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
    if (i + len <= text.size() && IsValidUtf8(text.substr(i, len))) {
      out.append(text.substr(i, len));
      i += len;
    } else {
      out.append(kReplacement);
      ++i;
    }
  }
  return out;
}

void AppendJsonEscaped(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (char c : ValidUtf8(text)) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out.push_back(kHex[(c >> 4) & 0xF]);
          out.push_back(kHex[c & 0xF]);
        } else {
          out.push_back(c);
        }
    }
  }
}

void AppendXmlEscaped(std::string& out, std::string_view text) {
  for (char c : ValidUtf8(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\t':
      case '\n':
      case '\r':
        out.push_back(c);
        break;
      default:
        // XML 1.0 has no way to write other control characters, not even as references.
        if (static_cast<unsigned char>(c) < 0x20) {
          out.append(kReplacement);
        } else {
          out.push_back(c);
        }
    }
  }
}

bool IsXmlOperation(Operation op) {
  switch (op) {
    case Operation::kGetTableAcl:
    case Operation::kSetTableAcl:
    case Operation::kGetServiceProperties:
    case Operation::kSetServiceProperties:
    case Operation::kGetServiceStats:
    case Operation::kPreflight:
      return true;
    default:
      return false;
  }
}

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
    AppendJsonEscaped(body, code);
    body += R"(","message":{"lang":"en-US","value":")";
    AppendJsonEscaped(body, error.UserMessage());
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
    AppendXmlEscaped(body, error.UserMessage());
    body += "\nRequestId:";
    body += request_id;
    body += "\nTime:";
    body += time;
    body += odata ? "</m:message>" : "</Message>";
    if (error.code == ErrorCode::kAuthenticationFailed && !error.detail.empty()) {
      body += "<AuthenticationErrorDetail>";
      AppendXmlEscaped(body, error.detail);
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
