#include "server/admin/admin_access.h"

#include <openssl/crypto.h>

#include <boost/asio/ip/address.hpp>
#include <cstring>

#include "common/encoding.h"

namespace malachite::server {
namespace {

bool SameSecret(std::string_view a, std::string_view b) {
  return a.size() == b.size() && !a.empty() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

// The scheme word of an Authorization value and what follows it (leading spaces removed).
std::pair<std::string_view, std::string_view> SplitScheme(std::string_view value) {
  const std::size_t space = value.find(' ');
  if (space == std::string_view::npos) return {value, {}};
  std::string_view rest = value.substr(space + 1);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  return {value.substr(0, space), rest};
}

void Refuse(Response& response, int status, std::string_view why) {
  response.status = status;
  response.headers.push_back({"Content-Type", "text/plain; charset=utf-8"});
  response.headers.push_back({"Cache-Control", "no-cache"});
  if (status == 401) {
    response.headers.push_back(
        {"WWW-Authenticate", "Basic realm=\"Malachite admin\", charset=\"UTF-8\""});
    response.headers.push_back({"WWW-Authenticate", "Bearer realm=\"Malachite admin\""});
  }
  response.body = why;
  response.body +=
      "\nThe admin endpoints (/-/ except /-/healthy and /-/ready) answer loopback clients, and "
      "others with an account's credentials: Authorization: SharedKey <account>:<signature>, "
      "Bearer <account key>, or Basic <account>:<account key>. --admin-open opens them to "
      "everyone.\n";
}

// "localhost", "<name>.localhost", 127.x.y.z or [::1], with or without ":<port>".
bool IsLoopbackName(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    const std::size_t close = host.find(']');
    return close != std::string_view::npos && host.substr(1, close - 1) == "::1";
  }
  host = host.substr(0, host.find(':'));
  std::string name = AsciiLower(host);
  if (!name.empty() && name.back() == '.') name.pop_back();
  if (name == "localhost") return true;
  if (name.size() > 10 && name.compare(name.size() - 10, 10, ".localhost") == 0) return true;
  boost::system::error_code ec;
  const auto v4 = boost::asio::ip::make_address_v4(name, ec);
  return !ec && (v4.to_uint() >> 24) == 127;
}

}  // namespace

// Emulator: admitting loopback clients trusts the machine, not every web page its browser opens.
// A page of another site can make the browser send a "simple" POST to 127.0.0.1 without a CORS
// preflight (POST /-/reset wipes the store, POST /-/faults can drop every connection), and a
// DNS-rebound name can make such a page same-origin. A browser names itself with Origin (CORS
// and every non-GET request) or Sec-Fetch-Site (every request of current browsers); such a
// request is a loopback client's only when it addresses the server by a loopback name and its
// Origin, if any, is this server's own. Scripts, SDKs and curl send neither header.
std::string ForeignPageReason(const Request& request) {
  const auto origin = request.Find("Origin");
  const auto fetch_site = request.Find("Sec-Fetch-Site");
  if (!origin && !fetch_site) return {};
  const auto host = request.Find("Host");
  if (!host || !IsLoopbackName(*host)) {
    return "A browser may use the admin endpoints without credentials only at a loopback address "
           "(127.0.0.1, [::1], localhost), not at '" +
           std::string(host.value_or("")) + "'.";
  }
  if (origin) {
    const std::string own =
        std::string(request.secure ? "https://" : "http://") + std::string(*host);
    if (AsciiLower(*origin) != AsciiLower(own)) {
      return "A page of another origin (" + std::string(*origin) +
             ") may not use the admin endpoints.";
    }
  }
  if (fetch_site && *fetch_site == "cross-site") {
    return "A page of another site may not use the admin endpoints.";
  }
  return {};
}

bool IsHealthProbePath(std::string_view path) { return path == "/-/healthy" || path == "/-/ready"; }

bool IsLoopbackAddress(std::string_view address) {
  if (address.empty()) return true;
  const std::string text(address);
  boost::system::error_code ec;
  const auto v4 = boost::asio::ip::make_address_v4(text, ec);
  if (!ec) return (v4.to_uint() >> 24) == 127;
  const auto v6 = boost::asio::ip::make_address_v6(text, ec);
  if (ec) return false;
  if (v6.is_loopback()) return true;
  return v6.is_v4_mapped() && v6.to_bytes()[12] == 127;
}

AdminAccess::AdminAccess(const std::vector<AccountConfig>& accounts, bool open, const Clock& clock)
    : open_(open), accounts_(accounts), authenticator_(accounts), clock_(clock) {}

AdminAccess AdminAccess::ForConfig(const ServerConfig& config, const Clock& clock) {
  return AdminAccess(config.accounts, config.admin_open || config.loose, clock);
}

std::optional<std::string> AdminAccess::CredentialsAccount(const Request& request,
                                                           std::string_view authorization) const {
  const auto [scheme, credentials] = SplitScheme(authorization);
  if (scheme == "Bearer") {
    for (const AccountConfig& account : accounts_) {
      if (SameSecret(credentials, account.key1) || SameSecret(credentials, account.key2)) {
        return account.name;
      }
    }
    return std::nullopt;
  }
  if (scheme == "Basic") {
    const auto decoded = Base64Decode(credentials);
    if (!decoded) return std::nullopt;
    const std::size_t colon = decoded->find(':');
    if (colon == std::string::npos) return std::nullopt;
    const std::string_view name = std::string_view(*decoded).substr(0, colon);
    const std::string_view key = std::string_view(*decoded).substr(colon + 1);
    for (const AccountConfig& account : accounts_) {
      if (account.name == name &&
          (SameSecret(key, account.key1) || SameSecret(key, account.key2))) {
        return account.name;
      }
    }
    return std::nullopt;
  }
  if (scheme != "SharedKey" && scheme != "SharedKeyLite") return std::nullopt;
  // Signed like a Table request whose resource is the admin path (no query: nothing under /-/
  // takes comp=).
  Route route;
  route.account = std::string(credentials.substr(0, credentials.find(':')));
  route.raw_path = request.target.substr(0, request.target.find('?'));
  route.method = request.method;
  if (!authenticator_.Authenticate(request, route, clock_.Now())) return std::nullopt;
  return route.account;
}

bool AdminAccess::Admit(const Request& request, Response& refusal,
                        std::string* credential_account) const {
  if (credential_account != nullptr) credential_account->clear();
  if (open_) return true;
  const auto authorization = request.Find("Authorization");
  auto admitted_by = [&](std::optional<std::string> account) {
    if (!account) return false;
    if (credential_account != nullptr) *credential_account = std::move(*account);
    return true;
  };
  if (IsLoopbackAddress(request.remote_address)) {
    const std::string foreign = ForeignPageReason(request);
    if (foreign.empty()) return true;
    if (authorization && admitted_by(CredentialsAccount(request, *authorization))) return true;
    Refuse(refusal, 403, foreign);
    return false;
  }
  if (!authorization || authorization->empty()) {
    Refuse(refusal, 401, "This admin endpoint needs credentials from a non-loopback client.");
    return false;
  }
  if (admitted_by(CredentialsAccount(request, *authorization))) return true;
  Refuse(refusal, 403, "The credentials match no account of this server.");
  return false;
}

}  // namespace malachite::server
