#include "server/admin/admin_access.h"

#include <arpa/inet.h>
#include <openssl/crypto.h>

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

}  // namespace

bool IsHealthProbePath(std::string_view path) { return path == "/-/healthy" || path == "/-/ready"; }

bool IsLoopbackAddress(std::string_view address) {
  if (address.empty()) return true;
  std::string text(address);
  in_addr v4{};
  if (::inet_pton(AF_INET, text.c_str(), &v4) == 1) {
    return (ntohl(v4.s_addr) >> 24) == 127;
  }
  in6_addr v6{};
  if (::inet_pton(AF_INET6, text.c_str(), &v6) != 1) return false;
  if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
  return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
}

AdminAccess::AdminAccess(const std::vector<AccountConfig>& accounts, bool open, const Clock& clock)
    : open_(open), accounts_(accounts), authenticator_(accounts), clock_(clock) {}

AdminAccess AdminAccess::ForConfig(const ServerConfig& config, const Clock& clock) {
  return AdminAccess(config.accounts, config.admin_open || config.loose, clock);
}

bool AdminAccess::CredentialsValid(const Request& request, std::string_view authorization) const {
  const auto [scheme, credentials] = SplitScheme(authorization);
  if (scheme == "Bearer") {
    for (const AccountConfig& account : accounts_) {
      if (SameSecret(credentials, account.key1) || SameSecret(credentials, account.key2)) {
        return true;
      }
    }
    return false;
  }
  if (scheme == "Basic") {
    const auto decoded = Base64Decode(credentials);
    if (!decoded) return false;
    const std::size_t colon = decoded->find(':');
    if (colon == std::string::npos) return false;
    const std::string_view name = std::string_view(*decoded).substr(0, colon);
    const std::string_view key = std::string_view(*decoded).substr(colon + 1);
    for (const AccountConfig& account : accounts_) {
      if (account.name == name &&
          (SameSecret(key, account.key1) || SameSecret(key, account.key2))) {
        return true;
      }
    }
    return false;
  }
  if (scheme != "SharedKey" && scheme != "SharedKeyLite") return false;
  // Signed like a Table request whose resource is the admin path (no query: nothing under /-/
  // takes comp=).
  Route route;
  route.account = std::string(credentials.substr(0, credentials.find(':')));
  route.raw_path = request.target.substr(0, request.target.find('?'));
  route.method = request.method;
  return authenticator_.Authenticate(request, route, clock_.Now()).has_value();
}

bool AdminAccess::Admit(const Request& request, Response& refusal) const {
  if (open_ || IsLoopbackAddress(request.remote_address)) return true;
  const auto authorization = request.Find("Authorization");
  if (!authorization || authorization->empty()) {
    Refuse(refusal, 401, "This admin endpoint needs credentials from a non-loopback client.");
    return false;
  }
  if (CredentialsValid(request, *authorization)) return true;
  Refuse(refusal, 403, "The credentials match no account of this server.");
  return false;
}

}  // namespace malachite::server
