// Routing (spec §1): the request-target is split into account, resource and query; the resource
// form and the effective verb pick the Operation. Hand-written scanning, no regex: this runs on
// every request.
#include "server/http/router.h"

#include "common/encoding.h"
#include "common/validation.h"
#include "server/http/url_coding.h"

namespace malachite::server {
namespace {

constexpr std::string_view kSecondarySuffix = "-secondary";

tl::unexpected<Error> InvalidUri() { return Fail(ErrorCode::kInvalidUri); }
tl::unexpected<Error> WrongVerb() { return Fail(ErrorCode::kUnsupportedHttpVerb); }

// Azure: spec §1.2 — parameter names and values arrive percent-encoded (`%24filter` from node
// legacy). '+' decodes to a space as in any form-encoded query (what Azurite's and IIS's query
// parsers do); SDKs that mean '+' send %2B.
void ParseQuery(std::string_view query, QueryParams& out) {
  while (!query.empty()) {
    std::size_t amp = query.find('&');
    std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (item.empty()) continue;
    std::size_t eq = item.find('=');
    std::string_view name = item.substr(0, eq);
    std::string_view value =
        eq == std::string_view::npos ? std::string_view{} : item.substr(eq + 1);
    out.items.emplace_back(PercentDecode(name, true), PercentDecode(value, true));
  }
}

// Parses a quoted OData string literal at `text[pos]` ('' is one quote). On success `pos` is just
// past the closing quote.
bool ParseQuoted(std::string_view text, std::size_t& pos, std::string& out) {
  if (pos >= text.size() || text[pos] != '\'') return false;
  out.clear();
  for (std::size_t i = pos + 1; i < text.size(); ++i) {
    if (text[i] != '\'') {
      out.push_back(text[i]);
    } else if (i + 1 < text.size() && text[i + 1] == '\'') {
      out.push_back('\'');
      ++i;
    } else {
      pos = i + 1;
      return true;
    }
  }
  return false;
}

void SkipSpaces(std::string_view text, std::size_t& pos) {
  while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
}

// `Name='value'` with optional spaces around '='.
bool ParseKeyValue(std::string_view text, std::size_t& pos, std::string_view name,
                   std::string& out) {
  SkipSpaces(text, pos);
  if (text.substr(pos, name.size()) != name) return false;
  pos += name.size();
  SkipSpaces(text, pos);
  if (pos >= text.size() || text[pos] != '=') return false;
  ++pos;
  SkipSpaces(text, pos);
  return ParseQuoted(text, pos, out);
}

// Azure: spec §1.2 — `PartitionKey='..',RowKey='..'` (docs show a space after the comma).
bool ParseEntityKeys(std::string_view args, Route& route) {
  std::size_t pos = 0;
  if (!ParseKeyValue(args, pos, "PartitionKey", route.partition_key)) return false;
  SkipSpaces(args, pos);
  if (pos >= args.size() || args[pos] != ',') return false;
  ++pos;
  if (!ParseKeyValue(args, pos, "RowKey", route.row_key)) return false;
  SkipSpaces(args, pos);
  return pos == args.size();
}

bool HasIfMatch(const Request& request) { return request.Find("If-Match").has_value(); }

// The operation for a resource form and verb. `form`: 0 = Tables collection, 1 = one table via
// Tables('t'), 2 = entity set, 3 = one entity, 4 = $batch.
Result<Operation> PickOperation(int form, std::string_view verb, const Request& request) {
  switch (form) {
    case 0:
      if (verb == "GET") return Operation::kQueryTables;
      if (verb == "POST") return Operation::kCreateTable;
      return WrongVerb();
    case 1:
      if (verb == "GET") return Operation::kGetTable;
      if (verb == "DELETE") return Operation::kDeleteTable;
      return WrongVerb();
    case 2:
      if (verb == "GET") return Operation::kQueryEntities;
      if (verb == "POST") return Operation::kInsertEntity;
      return WrongVerb();
    case 3:
      // Azure: spec §1.4 — If-Match splits update from upsert.
      if (verb == "GET") return Operation::kGetEntity;
      if (verb == "PUT") {
        return HasIfMatch(request) ? Operation::kUpdateEntity : Operation::kInsertOrReplaceEntity;
      }
      if (verb == "MERGE" || verb == "PATCH") {
        return HasIfMatch(request) ? Operation::kMergeEntity : Operation::kInsertOrMergeEntity;
      }
      if (verb == "DELETE") return Operation::kDeleteEntity;
      return WrongVerb();
    default:
      if (verb == "POST") return Operation::kBatch;
      return WrongVerb();
  }
}

// Azure: spec §1.4 X-HTTP-Method tunnelling, checked in the service's order.
Result<void> ApplyMethodOverride(const Request& request, Route& route) {
  route.method.assign(request.method);
  std::size_t count = request.Count("X-HTTP-Method");
  if (count == 0) return {};
  if (count > 1) return Fail(ErrorCode::kXMethodIncorrectCount);
  if (request.method != "POST") return Fail(ErrorCode::kXMethodNotUsingPost);
  std::string_view value = *request.Find("X-HTTP-Method");
  if (value != "DELETE" && value != "PUT" && value != "MERGE") {
    return Fail(ErrorCode::kXMethodIncorrectValue);
  }
  route.method.assign(value);
  return {};
}

// Account-level resources: service properties and stats (spec §4.15–4.16).
Result<void> RouteServiceLevel(Route& route) {
  const std::string* restype = route.query.Find("restype");
  const std::string* comp = route.query.Find("comp");
  if (restype == nullptr || *restype != "service" || comp == nullptr) return InvalidUri();
  if (*comp == "properties") {
    if (route.method == "GET")
      route.op = Operation::kGetServiceProperties;
    else if (route.method == "PUT")
      route.op = Operation::kSetServiceProperties;
    else
      return WrongVerb();
    return {};
  }
  if (*comp == "stats") {
    if (route.method != "GET") return WrongVerb();
    // Azure: spec §4.16 — stats exist only on the secondary endpoint.
    if (!route.secondary) return Fail(ErrorCode::kInvalidQueryParameterValue);
    route.op = Operation::kGetServiceStats;
    return {};
  }
  return Fail(ErrorCode::kInvalidQueryParameterValue);
}

// Azure: spec §9.1 — every URL naming a table is validated; `$`-names are system tables.
Result<void> CheckTableName(std::string_view name) {
  if (!name.empty() && name.front() == '$') return {};
  return ValidateTableName(name);
}

// Routes the decoded resource path (after "/<account>/"); `valid_table` as in RouteRequest.
Result<void> RouteResource(std::string_view resource, const Request& request, Route& route,
                           std::string_view valid_table) {
  std::size_t paren = resource.find('(');
  std::string_view name = resource.substr(0, paren);
  std::string_view args;
  bool has_args = paren != std::string_view::npos;
  if (has_args) {
    if (resource.back() != ')') return InvalidUri();
    args = resource.substr(paren + 1, resource.size() - paren - 2);
  }
  if (name.empty()) return InvalidUri();

  int form = 2;
  if (AsciiIEquals(name, "Tables")) {
    form = 0;
    if (!args.empty()) {
      std::size_t pos = 0;
      if (!ParseQuoted(args, pos, route.table) || pos != args.size()) return InvalidUri();
      if (auto ok = CheckTableName(route.table); !ok) return ok;
      form = 1;
    }
  } else if (name == "$batch") {
    if (has_args) return InvalidUri();
    form = 4;
  } else {
    route.table.assign(name);
    if (valid_table.empty() || route.table != valid_table) {
      if (auto ok = CheckTableName(route.table); !ok) return ok;
    }
    if (!args.empty()) {
      if (!ParseEntityKeys(args, route)) return InvalidUri();
      form = 3;
    }
  }

  if (const std::string* comp = route.query.Find("comp")) {
    // Azure: spec §1.4 — `?comp=acl` on a table; any other comp is an invalid parameter.
    if (*comp != "acl" || form != 2 || has_args)
      return Fail(ErrorCode::kInvalidQueryParameterValue);
    if (route.method == "GET")
      route.op = Operation::kGetTableAcl;
    else if (route.method == "PUT")
      route.op = Operation::kSetTableAcl;
    else
      return WrongVerb();
    return {};
  }
  auto op = PickOperation(form, route.method, request);
  if (!op) return tl::unexpected(op.error());
  route.op = *op;
  return {};
}

// Azure: spec §1.1 — the account: the host's in host style, else the path's first segment
// (HostStyleAccount: a path naming a known account is path style on any host).
// `slash` is set to the '/' before the resource (the path's first '/' in host style).
Result<void> RouteAccount(std::string_view path, std::optional<std::string_view> authority,
                          const HostRouting& routing, Route& route, std::size_t& slash) {
  slash = 0;
  if (auto host = authority ? HostStyleAccount(*authority, path, routing) : std::nullopt) {
    route.account = std::move(host->account);
    route.secondary = host->secondary;
    route.host_style = true;
    return {};
  }
  slash = path.find('/', 1);
  std::string_view account =
      path.substr(1, slash == std::string_view::npos ? path.npos : slash - 1);
  PercentDecodeInto(account, route.account);
  if (route.account.size() > kSecondarySuffix.size() && route.account.ends_with(kSecondarySuffix)) {
    route.account.resize(route.account.size() - kSecondarySuffix.size());
    route.secondary = true;
  }
  if (route.account.empty()) return InvalidUri();
  return {};
}

// Every field of `route` back to its default, keeping the strings' capacity.
void Reset(Route& route) {
  route.op = Operation::kQueryTables;
  route.account.clear();
  route.secondary = false;
  route.host_style = false;
  route.table.clear();
  route.partition_key.clear();
  route.row_key.clear();
  route.query.items.clear();
  route.raw_path.clear();
  route.method.clear();
  route.extra_segment = ExtraSegment::kNone;
}

// Azure: spec §1.2 — "<t>/<segment>[(<args>)]" (decoded, one '/'): the table first, then what
// the second segment's key predicate asks. The operation is the verb's on <t> (auth checks it
// as such); the handler answers from route.extra_segment.
Result<void> RouteExtraSegment(std::string_view resource, Route& route) {
  const std::size_t slash = resource.find('/');
  std::string_view table = resource.substr(0, slash);
  std::string_view segment = resource.substr(slash + 1);
  if (AsciiIEquals(table, "Tables") || table == "$batch" || segment.empty() ||
      segment.front() == '(' || segment.starts_with("$batch")) {
    return InvalidUri();  // Emulator: shapes no recording shows (spec §1.2)
  }
  if (auto ok = CheckTableName(table); !ok) return ok;
  route.table.assign(table);
  std::size_t paren = segment.find('(');
  std::string_view args;
  if (paren != std::string_view::npos) {
    if (segment.back() != ')') return InvalidUri();
    args = segment.substr(paren + 1, segment.size() - paren - 2);
  }
  const std::string_view verb = route.method;
  if (verb != "GET" && verb != "POST" && verb != "PUT" && verb != "MERGE" && verb != "PATCH" &&
      verb != "DELETE") {
    return WrongVerb();
  }
  if (args.empty()) {
    route.extra_segment = ExtraSegment::kBare;
    route.op = verb == "POST" ? Operation::kInsertEntity : Operation::kQueryEntities;
    return {};
  }
  route.extra_segment =
      ParseEntityKeys(args, route) ? ExtraSegment::kEntityKeys : ExtraSegment::kOneKey;
  route.partition_key.clear();
  route.row_key.clear();
  route.op = verb == "DELETE" ? Operation::kDeleteEntity
             : verb == "GET"  ? Operation::kGetEntity
                              : Operation::kInsertOrMergeEntity;
  return {};
}

}  // namespace

Result<Route> RouteRequest(const Request& request) { return RouteRequest(request, HostRouting{}); }

Result<Route> RouteRequest(const Request& request, const HostRouting& routing) {
  Route route;
  if (auto ok = RouteRequest(request, routing, route); !ok) return tl::unexpected(ok.error());
  return route;
}

Result<void> RouteRequest(const Request& request, const HostRouting& routing, Route& route,
                          std::string_view valid_table) {
  Reset(route);
  std::string_view target = request.target;
  std::optional<std::string_view> authority = request.Find("Host");
  // An absolute-form target (proxies, $batch parts): its authority is the host; drop both.
  if (std::size_t scheme = target.find("://");
      scheme != std::string_view::npos && scheme < target.find('/')) {
    std::size_t path = target.find('/', scheme + 3);
    authority =
        target.substr(scheme + 3, path == std::string_view::npos ? path : path - scheme - 3);
    target = path == std::string_view::npos ? std::string_view("/") : target.substr(path);
  }
  std::size_t question = target.find('?');
  std::string_view path = target.substr(0, question);
  if (question != std::string_view::npos) ParseQuery(target.substr(question + 1), route.query);
  route.raw_path.assign(path);
  if (path.empty() || path.front() != '/') return InvalidUri();
  // Azure: spec §1.2 — http.sys, the service's front end, refuses a path in which a '%' starts no
  // two-hex-digit escape (400 "Bad Request - Invalid URL") before the service sees it. Emulator:
  // the same 400 in the service's error format (http.sys sends HTML without x-ms-error-code).
  if (!IsValidPercentEncoding(path)) {
    return Fail(ErrorCode::kInvalidUri, {}, "malformed percent escape in the path");
  }
  std::size_t slash = 0;
  if (auto ok = RouteAccount(path, authority, routing, route, slash); !ok) return ok;

  // Azure: spec §4.17 — OPTIONS is a CORS preflight on any path.
  if (request.method == "OPTIONS") {
    route.method = request.method;
    route.op = Operation::kPreflight;
    return {};
  }
  if (auto ok = ApplyMethodOverride(request, route); !ok) return ok;

  std::string_view rest =
      slash == std::string_view::npos ? std::string_view{} : path.substr(slash + 1);
  // Emulator: the Python SDK reaches the secondary of a path-style endpoint by renaming only the
  // host part, so Get Table Service Stats arrives as /<account>-secondary/<account>/?restype=...
  if (route.secondary && !route.host_style && route.query.Find("restype") != nullptr &&
      (rest == route.account || rest == route.account + "/")) {
    rest = {};
  }
  if (rest.empty()) return RouteServiceLevel(route);
  // Emulator: one trailing slash after a resource (`/Tables/`, `/$batch/`, `/<table>()/`) is
  // ignored, as Azurite does (plain HTTP clients send it); the signature covers the path as sent.
  if (rest.size() > 1 && rest.back() == '/') rest.remove_suffix(1);
  // Azure: spec §1.2 — the resource is one path segment. A '/' sent as %2F belongs to the name
  // and fails the table-name rules (InvalidResourceName), not the routing. Two segments are a
  // table name before the resource (RouteExtraSegment); more are InvalidUri.
  if (std::size_t second = rest.substr(0, rest.find('(')).find('/');
      second != std::string_view::npos) {
    std::string_view tail = rest.substr(second + 1);
    if (tail.substr(0, tail.find('(')).find('/') != std::string_view::npos) return InvalidUri();
    if (rest.find('%') == std::string_view::npos) return RouteExtraSegment(rest, route);
    return RouteExtraSegment(PercentDecode(rest), route);
  }
  // Azure: spec §1.2 — decode before parsing (clients send both ' and %27). Keys cannot hold
  // '/', '\', '#' or '?', so the decoded form is unambiguous. Most resources hold no escape and
  // are read in place.
  std::string decoded;
  std::string_view resource = rest;
  if (rest.find('%') != std::string_view::npos) {
    decoded = PercentDecode(rest);
    resource = decoded;
  }
  return RouteResource(resource, request, route, valid_table);
}

}  // namespace malachite::server
