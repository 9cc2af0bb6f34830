// A blocking HTTP/1.1 client of the Table REST API for the online tools (export, import,
// backup): one keep-alive connection (TLS with certificate and host name checks for https),
// every request signed with Shared Key (spec §10.2) or carrying the endpoint's SAS token.
// One TableClient per thread.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/connection_string.h"
#include "common/error.h"
#include "server/http/message.h"

namespace malachite::cli {

struct HttpReply {
  int status = 0;
  std::vector<server::Header> headers;
  std::string body;
  // The first header named `name` (case-insensitive), or nullopt; lives as long as the reply.
  std::optional<std::string_view> Find(std::string_view name) const;
};

// The Azure error of a failed reply: the code of its odata.error body (or x-ms-error-code) with
// the service's message, e.g. {kTableNotFound, "The table specified does not exist."}; a code
// Malachite does not know becomes kInternalError with "<Code>: <message>".
Error ReplyError(const HttpReply& reply);

class TableClient {
 public:
  explicit TableClient(TableEndpoint endpoint);
  ~TableClient();
  TableClient(const TableClient&) = delete;
  TableClient& operator=(const TableClient&) = delete;

  // Sends `method` to base_path + `path` (e.g. "/Tables", "/$batch", "/orders()") with `query`
  // (encoded, without '?'; the SAS token is added) and returns the reply, whatever its status.
  // Reconnects once when a kept-alive connection turns out closed. Errors: kInternalError
  // naming the endpoint for connection, TLS and protocol failures.
  Result<HttpReply> Send(std::string_view method, std::string_view path, std::string_view query,
                         std::string_view content_type, std::string_view body,
                         const std::vector<server::Header>& extra_headers = {});

  // The same for a path from the server's root instead of below the account's base path: the
  // emulator's own endpoints (POST /-/backup). Signed over "/<account><path>".
  Result<HttpReply> SendToRoot(std::string_view method, std::string_view path,
                               std::string_view query);

  const TableEndpoint& endpoint() const { return endpoint_; }

 private:
  struct Connection;
  Result<HttpReply> SendPath(std::string_view method, const std::string& path,
                             std::string_view query, std::string_view content_type,
                             std::string_view body, const std::vector<server::Header>& extra);
  Result<HttpReply> SendOnce(const std::string& target, const std::vector<server::Header>& headers,
                             std::string_view method, std::string_view body);

  TableEndpoint endpoint_;
  std::string raw_key_;
  std::unique_ptr<Connection> connection_;
};

}  // namespace malachite::cli
