// Host-style addressing (spec §1.1): `http://devstoreaccount1.localhost:10002/Tables` names the
// account in the host, as production URLs do (`https://<account>.table.core.windows.net/Tables`).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/http/message.h"
#include "server/http/route.h"

namespace malachite::server {

// Which hosts address an account.
struct HostRouting {
  bool enabled = false;               // ServerConfig::host_style
  std::vector<std::string> accounts;  // the known account names (when `find` is not set)
  // The known accounts when they change at run time (the server's AccountDirectory): the name of
  // the account `label` names (ASCII case ignored), as it is spelled in the directory.
  std::function<std::optional<std::string>(std::string_view label)> find;
};

// The account a host names.
struct HostAccount {
  std::string account;     // as configured (not as the host spells it)
  bool secondary = false;  // the first label was "<account>-secondary"
};

// The account that `host` (a Host header value or a URL authority: name[:port]) addresses: its
// first label, when the host has more than one label, is not an IP address (v4, or a bracketed
// or bare v6 literal) and that label is a known account, or a known account + "-secondary"
// (ASCII case-insensitive). nullopt otherwise, and always when routing is disabled: the request
// is then path-style. The hostname of an authority with userinfo ("user@host") is used.
std::optional<HostAccount> ParseHostAccount(std::string_view host, const HostRouting& routing);

// The account a request for `path` (its raw path, without the query) reached at `host` addresses
// by its host: ParseHostAccount(host, routing), unless the path begins with a known account's
// name (or one + "-secondary"), spelled exactly as the account is and followed by '/'
// ("/devstoreaccount1/Tables", "/devstoreaccount1/?restype=..."): then nullopt, and the request
// is path style whatever the host says. A bare "/<name>" stays a table of the host's account.
std::optional<HostAccount> HostStyleAccount(std::string_view host, std::string_view path,
                                            const HostRouting& routing);

// The account's endpoint as `request` reached it (spec §4.1): "http(s)://<Host>/<account>" in
// path style, "http(s)://<Host>" in host style; `fallback_host` stands in for a missing Host, or
// one that is not visible ASCII (it is echoed into JSON bodies and headers). The base of
// odata.metadata, odata.id and Location, and an audience a token may name (spec §10.9).
std::string AccountEndpoint(const Request& request, const Route& route,
                            std::string_view fallback_host);

}  // namespace malachite::server
