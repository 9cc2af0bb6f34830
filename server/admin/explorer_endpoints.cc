#include "server/admin/explorer_endpoints.h"

#include <fmt/format.h>

#include <algorithm>

#include "config/server_config.h"
#include "server/admin/explorer_assets.h"
#include "server/traffic/endpoint_answer.h"
#include "server/wire/json_writer.h"

namespace malachite::server {
namespace {

constexpr std::string_view kRoot = "/-/explorer";
constexpr std::string_view kTablePrefix = "/-/explorer/table/";
constexpr std::string_view kServerInfo = "/-/explorer/api/server";

// The page loads its own files only: no inline script, no other origin (nothing is fetched from
// the network), no framing.
constexpr std::string_view kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'";

void ServeAsset(std::string_view name, Response& response) {
  const EmbeddedAsset* asset = FindExplorerAsset(name);
  if (asset == nullptr) {
    return Answer(response, 404, "text/plain; charset=utf-8", "no such explorer file\n");
  }
  Answer(response, 200, asset->content_type, std::string(asset->bytes));
  response.headers.push_back({"Content-Security-Policy", std::string(kContentSecurityPolicy)});
  response.headers.push_back({"X-Content-Type-Options", "nosniff"});
}

void ServeServerInfo(const ExplorerContext& context, Response& response) {
  const Throttle& throttle = context.traffic.throttle();
  std::string body = "{";
  JsonMembers m(body);
  m.String("version", kMalachiteVersion);
  m.Key("accounts");
  body += "[";
  const std::vector<std::string> accounts = context.insight.accounts();
  for (std::size_t i = 0; i < accounts.size(); ++i) {
    if (i > 0) body += ",";
    AppendJsonString(body, accounts[i]);
  }
  body += fmt::format("],\"throttling\":{},\"partition_target\":{},\"account_target\":{}}}\n",
                      throttle.enabled() ? "true" : "false", throttle.config().partition_rate,
                      throttle.config().account_rate);
  Answer(response, 200, "application/json", std::move(body));
}

// Emulator: a web page of another origin must not drive the explorer's calls (they run as the
// account owner) through the user's browser. The page's own calls carry x-ms-version, a header a
// cross-origin page can only send after a CORS preflight, which /-/ never grants; and a browser
// names the page's origin in Origin, which must then be this server's.
bool FromTheExplorerPage(const Request& request) {
  if (!request.Find("x-ms-version")) return false;
  const auto origin = request.Find("Origin");
  if (!origin) return true;
  const auto host = request.Find("Host");
  const std::string_view scheme = request.secure ? "https://" : "http://";
  return host && origin->size() == scheme.size() + host->size() &&
         origin->substr(0, scheme.size()) == scheme && origin->substr(scheme.size()) == *host;
}

// "/-/explorer/table/<account>/..." -> "/<account>/..." when <account> is configured.
ExplorerAnswer ForwardToTableApi(Request& request, const ExplorerContext& context,
                                 Response& response) {
  if (!FromTheExplorerPage(request)) {
    AnswerJsonError(response, 403,
                    "explorer calls need x-ms-version and, from a browser, this server's origin");
    return ExplorerAnswer::kAnswered;
  }
  const std::string_view rest = std::string_view(request.target).substr(kTablePrefix.size() - 1);
  const std::size_t end = rest.find_first_of("/?(", 1);
  const std::string_view account = rest.substr(1, end == std::string_view::npos ? end : end - 1);
  if (!context.insight.HasAccount(account)) {
    AnswerJsonError(response, 404, "no account '" + std::string(account) + "' on this server");
    return ExplorerAnswer::kAnswered;
  }
  // Emulator: the call runs as the account owner, so credentials open their own account only.
  if (!context.credential_account.empty() && context.credential_account != account) {
    AnswerJsonError(response, 403,
                    "these credentials are account '" + std::string(context.credential_account) +
                        "''s, not '" + std::string(account) + "''s");
    return ExplorerAnswer::kAnswered;
  }
  request.target = std::string(rest);
  return ExplorerAnswer::kTableApi;
}

}  // namespace

bool IsExplorerPath(std::string_view path) {
  return path == kRoot || path.substr(0, kRoot.size() + 1) == "/-/explorer/";
}

ExplorerAnswer HandleExplorerRequest(Request& request, const ExplorerContext& context,
                                     Response& response) {
  const std::string_view path = PathOf(request.target);
  if (path.substr(0, kTablePrefix.size()) == kTablePrefix) {
    return ForwardToTableApi(request, context, response);
  }
  if (request.method != "GET" && request.method != "HEAD") {
    MethodNotAllowed(response, "GET, HEAD");
    return ExplorerAnswer::kAnswered;
  }
  if (path == kRoot) {
    Answer(response, 302, "text/plain; charset=utf-8", "see /-/explorer/\n");
    response.headers.push_back({"Location", "/-/explorer/"});
  } else if (path == kServerInfo) {
    ServeServerInfo(context, response);
  } else {
    const std::string_view name = path.substr(kRoot.size() + 1);
    ServeAsset(name.empty() ? "index.html" : name, response);
  }
  return ExplorerAnswer::kAnswered;
}

}  // namespace malachite::server
