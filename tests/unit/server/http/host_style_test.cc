// Host-style addressing (spec §1.1): which hosts name an account, how such requests route, sign
// (spec §10.4) and build their base URL (spec §4.1). Signature vectors computed with Python's
// hmac over the strings the SDKs sign.
#include "server/http/host_style.h"

#include <catch2/catch.hpp>

#include "common/datetime.h"
#include "common/encoding.h"
#include "server/auth/authenticator.h"
#include "server/auth/shared_key.h"
#include "server/http/router.h"

namespace malachite::server {
namespace {

constexpr const char* kDate = "Sat, 21 Nov 2026 05:21:46 GMT";

const HostRouting kRouting{true, {"devstoreaccount1", "myacct"}, {}};

std::string HostOf(std::string_view host, const HostRouting& routing = kRouting) {
  auto account = ParseHostAccount(host, routing);
  if (!account) return "path-style";
  return account->account + (account->secondary ? " secondary" : "");
}

Request Make(std::string method, std::string target, std::vector<Header> headers) {
  Request request;
  request.method = std::move(method);
  request.target = std::move(target);
  request.headers = std::move(headers);
  return request;
}

// "Op account[ secondary][ host] table=<t> canonical=<CanonicalizedResource>" or the error code.
std::string RouteOf(std::string method, std::string target, std::string host,
                    const HostRouting& routing = kRouting) {
  auto route = RouteRequest(Make(std::move(method), std::move(target), {{"Host", host}}), routing);
  if (!route) return "error " + std::string(route.error().AzureCode());
  std::string out = std::string(OperationName(route->op)) + " " + route->account;
  if (route->secondary) out += " secondary";
  if (route->host_style) out += " host";
  if (!route->table.empty()) out += " table=" + route->table;
  return out + " canonical=" + CanonicalizedResource(*route);
}

}  // namespace

TEST_CASE(
    "host style: a first label naming a known account addresses it, IPs and one-label "
    "names do not",
    "[host-style]") {
  CHECK(HostOf("devstoreaccount1.localhost:10002") == "devstoreaccount1");
  CHECK(HostOf("devstoreaccount1.localhost") == "devstoreaccount1");
  CHECK(HostOf("devstoreaccount1.table.localhost:10002") == "devstoreaccount1");
  CHECK(HostOf("myacct.table.core.windows.net") == "myacct");
  CHECK(HostOf("MyAcct.Example.Test") == "myacct");  // host names are case-insensitive
  CHECK(HostOf("devstoreaccount1-secondary.localhost:10002") == "devstoreaccount1 secondary");
  CHECK(HostOf("user@devstoreaccount1.localhost:1") == "devstoreaccount1");
  CHECK(HostOf("localhost:10002") == "path-style");
  CHECK(HostOf("devstoreaccount1") == "path-style");
  CHECK(HostOf("devstoreaccount1:10002") == "path-style");
  CHECK(HostOf("127.0.0.1:10002") == "path-style");
  CHECK(HostOf("[::1]:10002") == "path-style");
  CHECK(HostOf("::1") == "path-style");
  CHECK(HostOf("unknown.localhost:10002") == "path-style");
  CHECK(HostOf("-secondary.localhost") == "path-style");
  CHECK(HostOf(".localhost") == "path-style");
  CHECK(HostOf("") == "path-style");
  CHECK(HostOf("devstoreaccount1.localhost", HostRouting{false, {"devstoreaccount1"}, {}}) ==
        "path-style");
}

TEST_CASE("host style: the whole path is the resource and SharedKey names the account once",
          "[host-style]") {
  const std::string host = "devstoreaccount1.localhost:10002";
  CHECK(RouteOf("GET", "/Tables", host) ==
        "QueryTables devstoreaccount1 host canonical=/devstoreaccount1/Tables");
  CHECK(RouteOf("POST", "/orders", host) ==
        "InsertEntity devstoreaccount1 host table=orders canonical=/devstoreaccount1/orders");
  CHECK(RouteOf("GET", "/orders(PartitionKey='a',RowKey='b')", host) ==
        "GetEntity devstoreaccount1 host table=orders "
        "canonical=/devstoreaccount1/orders(PartitionKey='a',RowKey='b')");
  CHECK(
      RouteOf("GET", "/orders?comp=acl", host) ==
      "GetTableACL devstoreaccount1 host table=orders canonical=/devstoreaccount1/orders?comp=acl");
  CHECK(RouteOf("GET", "/?restype=service&comp=properties", host) ==
        "GetTableServiceProperties devstoreaccount1 host "
        "canonical=/devstoreaccount1/?comp=properties");
  CHECK(RouteOf("GET", "/?restype=service&comp=stats", "devstoreaccount1-secondary.localhost:1") ==
        "GetTableServiceStats devstoreaccount1 secondary host "
        "canonical=/devstoreaccount1/?comp=stats");
  CHECK(RouteOf("POST", "/$batch", host) ==
        "EntityGroupTransaction devstoreaccount1 host canonical=/devstoreaccount1/$batch");
  // Path style keeps working on the same port.
  CHECK(RouteOf("GET", "/devstoreaccount1/Tables", "127.0.0.1:10002") ==
        "QueryTables devstoreaccount1 canonical=/devstoreaccount1/devstoreaccount1/Tables");
  // With host style off the Host is ignored.
  CHECK(RouteOf("GET", "/devstoreaccount1/Tables", host, HostRouting{false, {}, {}}) ==
        "QueryTables devstoreaccount1 canonical=/devstoreaccount1/devstoreaccount1/Tables");
  // A table name before the resource stays host style (spec §1.2: the service answers
  // TableNotFound, or NotImplemented if that table exists).
  CHECK(
      RouteOf("GET", "/orders/Tables", host) ==
      "QueryEntities devstoreaccount1 host table=orders canonical=/devstoreaccount1/orders/Tables");
  // An absolute-form target's authority is the host ($batch parts, proxies).
  CHECK(RouteOf("GET", "https://myacct.localhost:1/tab1()", "ignored") ==
        "QueryEntities myacct host table=tab1 canonical=/myacct/tab1()");
}

TEST_CASE(
    "host style: a path starting with a known account and '/' is path style whatever the host "
    "names",
    "[host-style]") {
  // An account named like the first label of a compose or Kubernetes alias ("tables" beside
  // tables.ci.internal) and a client of another account addressing it path style.
  const HostRouting routing{true, {"devstoreaccount1", "tables"}, {}};
  const std::string alias = "tables.ci.internal:10002";
  auto decide = [&](std::string_view host, std::string_view path) {
    auto account = HostStyleAccount(host, path, routing);
    return account ? account->account + (account->secondary ? " secondary" : "")
                   : std::string("path-style");
  };
  CHECK(decide(alias, "/devstoreaccount1/Tables") == "path-style");
  CHECK(decide(alias, "/devstoreaccount1/") == "path-style");
  CHECK(decide(alias, "/devstoreaccount1-secondary/") == "path-style");
  CHECK(decide(alias, "/tables/Tables") == "path-style");  // the host's own account, path style
  CHECK(decide(alias, "/Tables") == "tables");
  CHECK(decide(alias, "/") == "tables");
  CHECK(decide(alias, "/devstoreaccount1") == "tables");         // Insert Entity into that table
  CHECK(decide(alias, "/devstoreaccount1()") == "tables");       // Query Entities of that table
  CHECK(decide(alias, "/Tables/") == "tables");                  // "Tables" names no "tables"
  CHECK(decide(alias, "/DevStoreAccount1/Tables") == "tables");  // accounts are spelled exactly
  CHECK(decide(alias, "/other/Tables") == "tables");             // no such account
  CHECK(decide(alias, "/-secondary/x") == "tables");
  CHECK(decide(alias, "//Tables") == "tables");
  CHECK(decide("tables-secondary.ci.internal", "/Tables") == "tables secondary");
  CHECK(decide("tables-secondary.ci.internal", "/devstoreaccount1/") == "path-style");

  CHECK(RouteOf("GET", "/devstoreaccount1/Tables", alias, routing) ==
        "QueryTables devstoreaccount1 canonical=/devstoreaccount1/devstoreaccount1/Tables");
  CHECK(RouteOf("GET", "/devstoreaccount1/orders(PartitionKey='a',RowKey='b')", alias, routing) ==
        "GetEntity devstoreaccount1 table=orders "
        "canonical=/devstoreaccount1/devstoreaccount1/orders(PartitionKey='a',RowKey='b')");
  CHECK(RouteOf("POST", "/devstoreaccount1/$batch", alias, routing) ==
        "EntityGroupTransaction devstoreaccount1 "
        "canonical=/devstoreaccount1/devstoreaccount1/$batch");
  CHECK(RouteOf("PUT", "/devstoreaccount1/?restype=service&comp=properties", alias, routing) ==
        "SetTableServiceProperties devstoreaccount1 "
        "canonical=/devstoreaccount1/devstoreaccount1/?comp=properties");
  CHECK(RouteOf("GET", "/devstoreaccount1-secondary/?restype=service&comp=stats", alias, routing) ==
        "GetTableServiceStats devstoreaccount1 secondary "
        "canonical=/devstoreaccount1/devstoreaccount1/?comp=stats");
  CHECK(RouteOf("GET", "http://tables.ci.internal:1/devstoreaccount1/tab()", "ignored", routing) ==
        "QueryEntities devstoreaccount1 table=tab "
        "canonical=/devstoreaccount1/devstoreaccount1/tab()");
  // Host style keeps working on the alias for everything else.
  CHECK(RouteOf("GET", "/Tables", alias, routing) ==
        "QueryTables tables host canonical=/tables/Tables");
  CHECK(RouteOf("POST", "/devstoreaccount1", alias, routing) ==
        "InsertEntity tables host table=devstoreaccount1 canonical=/tables/devstoreaccount1");
  CHECK(RouteOf("GET", "/other/Tables", alias, routing) ==
        "QueryEntities tables host table=other canonical=/tables/other/Tables");
}

TEST_CASE("host style: accounts made at run time take part in the decision as soon as they exist",
          "[host-style]") {
  std::vector<std::string> accounts{"devstoreaccount1"};
  HostRouting routing{true, {}, {}};
  routing.find = [&accounts](std::string_view label) -> std::optional<std::string> {
    for (const std::string& account : accounts) {
      if (AsciiIEquals(account, label)) return account;
    }
    return std::nullopt;
  };
  const std::string alias = "tables.localhost:10002";
  // No account "tables" yet: the alias is an ordinary host, path style.
  CHECK(RouteOf("GET", "/devstoreaccount1/Tables", alias, routing) ==
        "QueryTables devstoreaccount1 canonical=/devstoreaccount1/devstoreaccount1/Tables");
  accounts.push_back("tables");  // POST /-/accounts {"name":"tables"}
  CHECK(RouteOf("GET", "/devstoreaccount1/Tables", alias, routing) ==
        "QueryTables devstoreaccount1 canonical=/devstoreaccount1/devstoreaccount1/Tables");
  CHECK(RouteOf("GET", "/Tables", alias, routing) ==
        "QueryTables tables host canonical=/tables/Tables");
  accounts.push_back("mine");  // a second run-time account, addressed path style on the alias
  CHECK(RouteOf("GET", "/mine/Tables", alias, routing) ==
        "QueryTables mine canonical=/mine/mine/Tables");
}

TEST_CASE("host style: requests signed over the host-style path authenticate", "[host-style]") {
  Authenticator auth({{std::string(kDevAccountName), std::string(kDevAccountKey), {}}});
  auto check = [&](Request request) {
    auto route = RouteRequest(request, kRouting);
    REQUIRE(route);
    auto principal = auth.Authenticate(request, *route, *ParseRfc1123(kDate));
    return principal ? std::string("ok") : std::string(principal.error().AzureCode());
  };
  const Header host{"Host", "devstoreaccount1.localhost:10002"};
  CHECK(check(Make(
            "GET", "/Tables",
            {host,
             {"x-ms-date", kDate},
             {"Authorization",
              "SharedKeyLite devstoreaccount1:Ly/iD1RLoREtX+H60jDFijuhRM+Dl2ifFOKZ2GBvnwo="}})) ==
        "ok");
  // The path-style string to sign (account twice) does not verify a host-style request.
  CHECK(check(Make(
            "GET", "/Tables",
            {host,
             {"x-ms-date", kDate},
             {"Authorization",
              "SharedKeyLite devstoreaccount1:6RlmiG26BLjVIGz53x8dSFckTphoqLfRmpb0RC4mqxo="}})) ==
        "AuthenticationFailed");
  CHECK(
      check(Make("GET", "/?restype=service&comp=stats",
                 {{"Host", "devstoreaccount1-secondary.localhost:10002"},
                  {"x-ms-date", kDate},
                  {"Authorization",
                   "SharedKey devstoreaccount1:I2+1tcKfizmVy+VN7J/8xyfPwbW2E0VROJ4BPTcyw6E="}})) ==
      "ok");
  // The path-style secondary's alternative strings to sign do not apply to a host-style one.
  CHECK(
      check(Make("GET", "/?restype=service&comp=stats",
                 {{"Host", "devstoreaccount1-secondary.localhost:10002"},
                  {"x-ms-date", kDate},
                  {"Authorization",
                   "SharedKey devstoreaccount1:6WPnpMGuHt8/6GB95a75SZlBZ+IKM+/kO5/xw+xodm0="}})) ==
      "AuthenticationFailed");
}

TEST_CASE("host style: the base URL of odata links holds no account segment", "[host-style]") {
  auto endpoint = [](std::string target, std::vector<Header> headers, bool secure = false) {
    Request request = Make("GET", std::move(target), std::move(headers));
    request.secure = secure;
    return AccountEndpoint(request, *RouteRequest(request, kRouting), "127.0.0.1:10002");
  };
  CHECK(endpoint("/Tables", {{"Host", "devstoreaccount1.localhost:10002"}}) ==
        "http://devstoreaccount1.localhost:10002");
  CHECK(endpoint("/Tables", {{"Host", "devstoreaccount1.localhost:10002"}}, true) ==
        "https://devstoreaccount1.localhost:10002");
  CHECK(endpoint("/devstoreaccount1/Tables", {{"Host", "127.0.0.1:5"}}) ==
        "http://127.0.0.1:5/devstoreaccount1");
  CHECK(endpoint("/devstoreaccount1/Tables", {}) == "http://127.0.0.1:10002/devstoreaccount1");
  CHECK(endpoint("/devstoreaccount1/Tables", {{"Host", "bad\"host"}}) ==
        "http://127.0.0.1:10002/devstoreaccount1");
}

}  // namespace malachite::server
