#include "cli/connection_string.h"

#include <boost/url/parse.hpp>
#include <map>

#include "common/encoding.h"
#include "config/server_config.h"

namespace malachite::cli {

std::string TableEndpoint::BaseUrl() const {
  const bool default_port = (https && port == "443") || (!https && port == "80");
  return std::string(https ? "https://" : "http://") + host + (default_port ? "" : ":" + port) +
         base_path;
}

Result<TableEndpoint> EndpointFromUrl(std::string_view url, std::string_view account,
                                      std::string_view key, std::string_view sas) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed || (parsed->scheme() != "http" && parsed->scheme() != "https") ||
      parsed->host_address().empty()) {
    return Fail(ErrorCode::kInvalidInput, "'" + std::string(url) + "' is not an http(s) URL");
  }
  TableEndpoint endpoint;
  endpoint.https = parsed->scheme() == "https";
  endpoint.host = parsed->host_address();
  endpoint.port = parsed->has_port() ? std::string(parsed->port()) : endpoint.https ? "443" : "80";
  std::string path(parsed->encoded_path());
  while (!path.empty() && path.back() == '/') path.pop_back();
  endpoint.base_path = path;
  endpoint.account = std::string(account);
  if (endpoint.account.empty() && path.size() > 1) {
    endpoint.account = path.substr(1, path.find('/', 1) - 1);
  }
  if (endpoint.account.empty()) {
    return Fail(ErrorCode::kInvalidInput, "no account name in '" + std::string(url) + "'");
  }
  endpoint.sas = std::string(sas.starts_with('?') ? sas.substr(1) : sas);
  endpoint.key = std::string(key);
  if (endpoint.sas.empty() && !Base64Decode(endpoint.key)) {
    return Fail(ErrorCode::kInvalidInput, "the account key is not base64");
  }
  return endpoint;
}

Result<TableEndpoint> ParseConnectionString(std::string_view text) {
  std::map<std::string, std::string> parts;  // lower-cased keys
  while (!text.empty()) {
    const std::size_t semi = text.find(';');
    std::string_view part = text.substr(0, semi);
    text = semi == std::string_view::npos ? std::string_view{} : text.substr(semi + 1);
    if (part.empty()) continue;
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos) {
      return Fail(ErrorCode::kInvalidInput,
                  "connection string part '" + std::string(part) + "' is not name=value");
    }
    parts[AsciiLower(part.substr(0, eq))] = std::string(part.substr(eq + 1));
  }
  auto get = [&](const char* name) {
    auto it = parts.find(name);
    return it == parts.end() ? std::string() : it->second;
  };
  if (AsciiLower(get("usedevelopmentstorage")) == "true") {
    return EndpointFromUrl("http://127.0.0.1:10002/devstoreaccount1", kDevAccountName,
                           kDevAccountKey, "");
  }
  const std::string account = get("accountname");
  std::string url = get("tableendpoint");
  if (url.empty()) {
    const std::string suffix =
        get("endpointsuffix").empty() ? "core.windows.net" : get("endpointsuffix");
    const std::string scheme =
        get("defaultendpointsprotocol").empty() ? "https" : get("defaultendpointsprotocol");
    if (account.empty()) {
      return Fail(ErrorCode::kInvalidInput, "the connection string names no AccountName");
    }
    url = scheme + "://" + account + ".table." + suffix;
  }
  const std::string key = get("accountkey");
  const std::string sas = get("sharedaccesssignature");
  if (key.empty() && sas.empty()) {
    return Fail(ErrorCode::kInvalidInput,
                "the connection string has neither AccountKey nor SharedAccessSignature");
  }
  // Host-style endpoints (Azure) carry no account in the path: it is AccountName, or for a SAS
  // the first label of the host.
  auto parsed = boost::urls::parse_uri(url);
  std::string named = account;
  if (named.empty() && parsed &&
      (parsed->encoded_path().empty() || parsed->encoded_path() == "/")) {
    const std::string host = parsed->host_address();
    named = host.substr(0, host.find('.'));
  }
  return EndpointFromUrl(url, named, key, sas);
}

}  // namespace malachite::cli
