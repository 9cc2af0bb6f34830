#include "server/http/host_style.h"

#include <algorithm>

#include "common/encoding.h"

namespace malachite::server {
namespace {

constexpr std::string_view kSecondarySuffix = "-secondary";

bool IsIpv4(std::string_view name) {
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

std::optional<std::string> FindAccount(std::string_view label, const HostRouting& routing) {
  if (routing.find) return routing.find(label);
  for (const std::string& account : routing.accounts) {
    if (AsciiIEquals(account, label)) return account;
  }
  return std::nullopt;
}

// `path` starts with "/<account>/" or "/<account>-secondary/", <account> known and spelled as
// it is configured.
bool PathNamesAccount(std::string_view path, const HostRouting& routing) {
  if (path.size() < 2 || path.front() != '/') return false;
  const std::size_t slash = path.find('/', 1);
  if (slash == std::string_view::npos || slash == 1) return false;
  std::string_view segment = path.substr(1, slash - 1);
  if (segment.size() > kSecondarySuffix.size() && segment.ends_with(kSecondarySuffix)) {
    segment.remove_suffix(kSecondarySuffix.size());
  }
  const auto account = FindAccount(segment, routing);
  return account && *account == segment;
}

}  // namespace

std::optional<HostAccount> HostStyleAccount(std::string_view host, std::string_view path,
                                            const HostRouting& routing) {
  auto account = ParseHostAccount(host, routing);
  // Emulator: spec §1.1 — path style is served on the same host names, and an alias whose first
  // label happens to be an account (compose's or Kubernetes' "tables.ci.internal" beside an
  // account "tables") must not capture a path-style client's "/devstoreaccount1/..." requests.
  // Exact spelling and the '/' keep host-style resources out: "/Tables/" names no account "tables",
  // "POST /orders" is Insert Entity into "orders" even beside an account "orders". Azure's hosts
  // serve host style only; there "/<t>/..." is a table before the resource (spec §1.2).
  if (account && PathNamesAccount(path, routing)) return std::nullopt;
  return account;
}

std::optional<HostAccount> ParseHostAccount(std::string_view host, const HostRouting& routing) {
  if (!routing.enabled) return std::nullopt;
  if (std::size_t at = host.rfind('@'); at != std::string_view::npos) host.remove_prefix(at + 1);
  // "[::1]:10002" is an IPv6 literal; a bare one has more than one ':'.
  if (host.empty() || host.front() == '[') return std::nullopt;
  const std::size_t colon = host.find(':');
  if (colon != std::string_view::npos && host.find(':', colon + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view name = host.substr(0, colon);
  const std::size_t dot = name.find('.');
  // Emulator: a single-label name ("localhost", a container name) stays path-style, as in
  // Azurite; production hosts always have more labels.
  if (dot == std::string_view::npos || dot == 0 || IsIpv4(name)) return std::nullopt;
  std::string_view label = name.substr(0, dot);
  if (auto account = FindAccount(label, routing)) return HostAccount{std::move(*account), false};
  // Azure: spec §1.1 — "<account>-secondary.table.core.windows.net" is the secondary endpoint.
  if (label.size() > kSecondarySuffix.size() &&
      AsciiIEquals(label.substr(label.size() - kSecondarySuffix.size()), kSecondarySuffix)) {
    label.remove_suffix(kSecondarySuffix.size());
    if (auto account = FindAccount(label, routing)) {
      return HostAccount{std::move(*account), true};
    }
  }
  return std::nullopt;
}

std::string AccountEndpoint(const Request& request, const Route& route,
                            std::string_view fallback_host) {
  auto host = request.Find("Host");
  const bool usable = host && !host->empty() && std::all_of(host->begin(), host->end(), [](char c) {
                        return c > ' ' && c < 0x7f && c != '"' && c != '\\';
                      });
  const std::string_view authority = usable ? *host : fallback_host;
  std::string url;
  url.reserve(8 + authority.size() + 1 + route.account.size());  // one allocation
  url += request.secure ? "https://" : "http://";
  url += authority;
  if (!route.host_style) {
    url += '/';
    url += route.account;
  }
  return url;
}

}  // namespace malachite::server
