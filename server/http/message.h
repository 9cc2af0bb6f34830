// Plain HTTP request/response values. The session converts Beast messages to and from these, so
// that everything below the session is ordinary synchronous code testable without sockets
// (ARCHITECTURE.md rule 1). No Boost in this header.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace malachite::server {

struct Header {
  std::string name;
  std::string value;
};

struct Request {
  std::string method;  // as sent: "GET", "MERGE", ...
  std::string target;  // request-target as sent (path and query, percent-encoding preserved)
  std::vector<Header> headers;
  std::string body;
  std::string remote_address;  // peer IP, for logs and the SAS `sip` check
  bool secure = false;         // arrived over TLS

  // The first header named `name` (case-insensitive), or nullopt. The view lives as long as the
  // request.
  std::optional<std::string_view> Find(std::string_view name) const;
  // How many headers are named `name` (case-insensitive).
  std::size_t Count(std::string_view name) const;
};

struct Response {
  int status = 200;
  std::vector<Header> headers;
  std::string body;

  // Replaces every header named `name` (case-insensitive) with one of value `value`.
  void Set(std::string_view name, std::string value);
  std::optional<std::string_view> Find(std::string_view name) const;
};

}  // namespace malachite::server
