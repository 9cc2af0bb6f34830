#include "server/http/router.h"

#include <catch2/catch.hpp>

#include "server/http/route.h"

namespace malachite::server {
namespace {

Request Make(std::string method, std::string target, std::vector<Header> headers = {}) {
  Request request;
  request.method = std::move(method);
  request.target = std::move(target);
  request.headers = std::move(headers);
  return request;
}

// One line per route: "Op account[-secondary] table=<t> pk=<pk> rk=<rk> verb=<m> q=<n>=<v>&..."
std::string Dump(const Result<Route>& route) {
  if (!route) return "error " + std::string(route.error().AzureCode());
  std::string out = std::string(OperationName(route->op)) + " " + route->account +
                    (route->secondary ? "-secondary" : "");
  if (!route->table.empty()) out += " table=" + route->table;
  if (route->op == Operation::kGetEntity || route->op == Operation::kUpdateEntity ||
      route->op == Operation::kMergeEntity || route->op == Operation::kInsertOrReplaceEntity ||
      route->op == Operation::kInsertOrMergeEntity || route->op == Operation::kDeleteEntity) {
    out += " pk=" + route->partition_key + " rk=" + route->row_key;
  }
  out += " verb=" + route->method;
  if (!route->query.items.empty()) {
    out += " q=";
    for (const auto& [name, value] : route->query.items) out += name + "=" + value + "&";
    out.pop_back();
  }
  return out;
}

std::string RouteOf(std::string method, std::string target, std::vector<Header> headers = {}) {
  return Dump(RouteRequest(Make(std::move(method), std::move(target), std::move(headers))));
}

}  // namespace

TEST_CASE("router: table collection and single-table URLs route to the table operations",
          "[router]") {
  CHECK(RouteOf("GET", "/devstoreaccount1/Tables") == "QueryTables devstoreaccount1 verb=GET");
  CHECK(RouteOf("GET", "/devstoreaccount1/Tables()") == "QueryTables devstoreaccount1 verb=GET");
  CHECK(RouteOf("POST", "/devstoreaccount1/Tables") == "CreateTable devstoreaccount1 verb=POST");
  // node legacy existence check sends %27.
  CHECK(RouteOf("GET", "/devstoreaccount1/Tables(%27mytable%27)") ==
        "GetTable devstoreaccount1 table=mytable verb=GET");
  CHECK(RouteOf("DELETE", "/devstoreaccount1/Tables('MyTable')") ==
        "DeleteTable devstoreaccount1 table=MyTable verb=DELETE");
  CHECK(RouteOf("GET", "/devstoreaccount1/Tables?$filter=TableName%20eq%20'x'&$top=5") ==
        "QueryTables devstoreaccount1 verb=GET q=$filter=TableName eq 'x'&$top=5");
  CHECK(RouteOf("PUT", "/devstoreaccount1/Tables") == "error UnsupportedHttpVerb");
  CHECK(RouteOf("POST", "/devstoreaccount1/Tables('tab1')") == "error UnsupportedHttpVerb");
}

TEST_CASE("router: entity set and entity URLs route by verb and If-Match", "[router]") {
  CHECK(RouteOf("GET", "/devstoreaccount1/orders()") ==
        "QueryEntities devstoreaccount1 table=orders verb=GET");
  CHECK(
      RouteOf("GET", "/devstoreaccount1/orders?%24filter=PartitionKey%20eq%20%27p%27&%24top=10") ==
      "QueryEntities devstoreaccount1 table=orders verb=GET q=$filter=PartitionKey eq 'p'&$top=10");
  CHECK(RouteOf("POST", "/devstoreaccount1/orders") ==
        "InsertEntity devstoreaccount1 table=orders verb=POST");
  CHECK(RouteOf("GET", "/devstoreaccount1/orders(PartitionKey='p1',RowKey='r''1')") ==
        "GetEntity devstoreaccount1 table=orders pk=p1 rk=r'1 verb=GET");
  CHECK(RouteOf("PUT", "/devstoreaccount1/orders(PartitionKey='a',RowKey='b')",
                {{"If-Match", "*"}}) ==
        "UpdateEntity devstoreaccount1 table=orders pk=a rk=b verb=PUT");
  CHECK(RouteOf("PUT", "/devstoreaccount1/orders(PartitionKey='a',RowKey='b')") ==
        "InsertOrReplaceEntity devstoreaccount1 table=orders pk=a rk=b verb=PUT");
  CHECK(RouteOf("PATCH", "/devstoreaccount1/orders(PartitionKey='a', RowKey='b')",
                {{"if-match", "W/\"x\""}}) ==
        "MergeEntity devstoreaccount1 table=orders pk=a rk=b verb=PATCH");
  CHECK(RouteOf("MERGE", "/devstoreaccount1/orders(PartitionKey='a',RowKey='b')") ==
        "InsertOrMergeEntity devstoreaccount1 table=orders pk=a rk=b verb=MERGE");
  CHECK(RouteOf("DELETE", "/devstoreaccount1/orders(PartitionKey='a',RowKey='b')",
                {{"If-Match", "*"}}) ==
        "DeleteEntity devstoreaccount1 table=orders pk=a rk=b verb=DELETE");
  CHECK(RouteOf("POST", "/devstoreaccount1/orders(PartitionKey='a',RowKey='b')") ==
        "error UnsupportedHttpVerb");
  CHECK(RouteOf("DELETE", "/devstoreaccount1/orders") == "error UnsupportedHttpVerb");
}

TEST_CASE("router: keys are percent-decoded, '' unescaped, empty keys and spaces allowed",
          "[router]") {
  // node legacy: everything percent-encoded, quotes as %27.
  CHECK(RouteOf("GET", "/devstoreaccount1/tab1(PartitionKey=%27p%20k%27,RowKey=%27it%27%27s%27)") ==
        "GetEntity devstoreaccount1 table=tab1 pk=p k rk=it's verb=GET");
  // JS SDK: WHATWG path keeps quotes raw, encodes the key content.
  CHECK(
      RouteOf("GET", "/devstoreaccount1/tab1(PartitionKey='partition-key%3A1',RowKey='%C3%A9')") ==
      "GetEntity devstoreaccount1 table=tab1 pk=partition-key:1 rk=\xC3\xA9 verb=GET");
  CHECK(RouteOf("GET", "/devstoreaccount1/tab1(PartitionKey='',RowKey='')") ==
        "GetEntity devstoreaccount1 table=tab1 pk= rk= verb=GET");
  CHECK(RouteOf("GET", "/devstoreaccount1/tab1( PartitionKey = 'a' , RowKey = 'b' )") ==
        "GetEntity devstoreaccount1 table=tab1 pk=a rk=b verb=GET");
  CHECK(RouteOf("GET", "/devstoreaccount1/tab1(PartitionKey='a)b',RowKey='(c)')") ==
        "GetEntity devstoreaccount1 table=tab1 pk=a)b rk=(c) verb=GET");
}

TEST_CASE("router: malformed resource paths are InvalidUri", "[router]") {
  for (auto target :
       {"/devstoreaccount1/tab1(PartitionKey='a')",
        "/devstoreaccount1/tab1(RowKey='b',PartitionKey='a')",
        "/devstoreaccount1/tab1(PartitionKey='a',RowKey='b'",
        "/devstoreaccount1/tab1(PartitionKey='a,RowKey='b')",
        "/devstoreaccount1/tab1(PartitionKey='a',RowKey='b')x", "/devstoreaccount1/Tables('x",
        "/devstoreaccount1/tab1/extra/more", "/", "", "devstoreaccount1/Tables",
        "/devstoreaccount1/", "/devstoreaccount1/$batch()", "/devstoreaccount1/tab1//",
        "/devstoreaccount1//", "/devstoreaccount1/Tables//", "/devstoreaccount1/tab1/()"}) {
    INFO(target);
    CHECK(RouteOf("GET", target) == "error InvalidUri");
  }
}

TEST_CASE("router: a table name before the resource is routed to that table", "[router]") {
  // Azure: spec §1.2 — what an SDK whose endpoint ends in the table name sends.
  CHECK(RouteOf("POST", "/devstoreaccount1/mytable/Tables") ==
        "InsertEntity devstoreaccount1 table=mytable verb=POST");
  CHECK(RouteOf("GET", "/devstoreaccount1/mytable/Tables") ==
        "QueryEntities devstoreaccount1 table=mytable verb=GET");
  CHECK(RouteOf("DELETE", "/devstoreaccount1/mytable/Tables('mytable')") ==
        "DeleteEntity devstoreaccount1 table=mytable pk= rk= verb=DELETE");
  auto shape = [](std::string method, std::string target) {
    auto route = RouteRequest(Make(std::move(method), std::move(target)));
    REQUIRE(route);
    return route->extra_segment;
  };
  CHECK(shape("POST", "/devstoreaccount1/mytable/Tables") == ExtraSegment::kBare);
  CHECK(shape("DELETE", "/devstoreaccount1/mytable/Tables('mytable')") == ExtraSegment::kOneKey);
  CHECK(shape("GET", "/devstoreaccount1/mytable/x(PartitionKey='a',RowKey='b')") ==
        ExtraSegment::kEntityKeys);
  CHECK(shape("GET", "/devstoreaccount1/mytable") == ExtraSegment::kNone);
  // The first segment is still a table name, checked as one; nor is Tables or $batch a table.
  CHECK(RouteOf("POST", "/devstoreaccount1/my_table/Tables") == "error InvalidResourceName");
  CHECK(RouteOf("POST", "/devstoreaccount1/Tables/Tables") == "error InvalidUri");
  CHECK(RouteOf("POST", "/devstoreaccount1/mytable/$batch") == "error InvalidUri");
  CHECK(RouteOf("HEAD", "/devstoreaccount1/mytable/Tables") == "error UnsupportedHttpVerb");
  CHECK(RouteOf("", "/devstoreaccount1/mytable/Tables") == "error UnsupportedHttpVerb");
}

TEST_CASE("router: table names in URLs are validated except $-system names", "[router]") {
  CHECK(RouteOf("GET", "/devstoreaccount1/my_table()") == "error InvalidResourceName");
  CHECK(RouteOf("GET", "/devstoreaccount1/1table") == "error InvalidResourceName");
  CHECK(RouteOf("GET", "/devstoreaccount1/ab") == "error OutOfRangeInput");
  CHECK(RouteOf("DELETE", "/devstoreaccount1/Tables('ab')") == "error OutOfRangeInput");
  CHECK(RouteOf("GET", "/devstoreaccount1/$MetricsHourPrimaryTransactionsTable()") ==
        "QueryEntities devstoreaccount1 table=$MetricsHourPrimaryTransactionsTable verb=GET");
  // "tables" in any case names the collection, not a table.
  CHECK(RouteOf("GET", "/devstoreaccount1/tables") == "QueryTables devstoreaccount1 verb=GET");
}

TEST_CASE("router: with a table name already validated, other names are still checked",
          "[router]") {
  const auto route = [](std::string target) {
    Route out;
    auto ok = RouteRequest(Make("POST", std::move(target)), HostRouting{}, out, "mytable");
    return ok ? Dump(out) : Dump(tl::unexpected(ok.error()));
  };
  CHECK(route("/devstoreaccount1/mytable") ==
        "InsertEntity devstoreaccount1 table=mytable verb=POST");
  CHECK(route("/devstoreaccount1/MyTable") ==
        "InsertEntity devstoreaccount1 table=MyTable verb=POST");
  CHECK(route("/devstoreaccount1/ab") == "error OutOfRangeInput");
  CHECK(route("/devstoreaccount1/my_table") == "error InvalidResourceName");
  CHECK(route("/devstoreaccount1/mytable1x") ==
        "InsertEntity devstoreaccount1 table=mytable1x verb=POST");
}

TEST_CASE("router: a table name that decodes to reserved characters fails the name rules",
          "[router]") {
  // `a//` sent as a%2F%2F: a name with invalid characters, not a path with more segments.
  CHECK(RouteOf("GET", "/devstoreaccount1/a%2F%2F()") == "error InvalidResourceName");
  CHECK(RouteOf("POST", "/devstoreaccount1/a%2F%2F") == "error InvalidResourceName");
  CHECK(RouteOf("DELETE", "/devstoreaccount1/a%2F%2F(PartitionKey='p',RowKey='r')",
                {{"If-Match", "*"}}) == "error InvalidResourceName");
  CHECK(RouteOf("PUT", "/devstoreaccount1/a%2F%2F?comp=acl") == "error InvalidResourceName");
  CHECK(RouteOf("GET", "/devstoreaccount1/Tables('a%2F%2F')") == "error InvalidResourceName");
  CHECK(RouteOf("GET", "/devstoreaccount1/abc%3Fdef()") == "error InvalidResourceName");
  CHECK(RouteOf("GET", "/devstoreaccount1/abc%23d%5C") == "error InvalidResourceName");
  // A bad length is OutOfRangeInput, checked first.
  CHECK(RouteOf("GET", "/devstoreaccount1/a%2F()") == "error OutOfRangeInput");
  CHECK(RouteOf("GET", "/devstoreaccount1/" + std::string(60, 'a') + "%2F%2F%2F%2F()") ==
        "error OutOfRangeInput");
  // Encoded letters are just letters.
  CHECK(RouteOf("GET", "/devstoreaccount1/%61bc()") ==
        "QueryEntities devstoreaccount1 table=abc verb=GET");
}

TEST_CASE("router: one trailing slash after a resource is ignored", "[router]") {
  CHECK(RouteOf("GET", "/devstoreaccount1/Tables/") == "QueryTables devstoreaccount1 verb=GET");
  CHECK(RouteOf("POST", "/devstoreaccount1/Tables/") == "CreateTable devstoreaccount1 verb=POST");
  CHECK(RouteOf("DELETE", "/devstoreaccount1/Tables('tab1')/") ==
        "DeleteTable devstoreaccount1 table=tab1 verb=DELETE");
  CHECK(RouteOf("POST", "/devstoreaccount1/$batch/") ==
        "EntityGroupTransaction devstoreaccount1 verb=POST");
  CHECK(RouteOf("GET", "/devstoreaccount1/tab1/") ==
        "QueryEntities devstoreaccount1 table=tab1 verb=GET");
  CHECK(RouteOf("GET", "/devstoreaccount1/tab1()/?$top=1") ==
        "QueryEntities devstoreaccount1 table=tab1 verb=GET q=$top=1");
  CHECK(RouteOf("POST", "/devstoreaccount1/tab1/") ==
        "InsertEntity devstoreaccount1 table=tab1 verb=POST");
  CHECK(RouteOf("GET", "/devstoreaccount1/tab1(PartitionKey='a',RowKey='b')/") ==
        "GetEntity devstoreaccount1 table=tab1 pk=a rk=b verb=GET");
  CHECK(RouteOf("PUT", "/devstoreaccount1/tab1/?comp=acl") ==
        "SetTableACL devstoreaccount1 table=tab1 verb=PUT q=comp=acl");
}

TEST_CASE("router: a '%' that starts no two-hex-digit escape in the path is InvalidUri",
          "[router]") {
  for (auto target :
       {"/devstoreaccount1/tab1(PartitionKey='%G1',RowKey='r')",
        "/devstoreaccount1/tab1(PartitionKey='p',RowKey='%zz')",
        "/devstoreaccount1/tab1(PartitionKey='p',RowKey='100%')",
        "/devstoreaccount1/tab1(PartitionKey='p',RowKey='%4')", "/devstoreaccount1/tab%1",
        "/devstore%xaccount1/Tables", "/devstoreaccount1/Tables%"}) {
    INFO(target);
    CHECK(RouteOf("PUT", target) == "error InvalidUri");
    CHECK(RouteOf("OPTIONS", target) == "error InvalidUri");
  }
  // %25 is the '%' itself; a malformed escape in the query is kept as text (not the path).
  CHECK(RouteOf("GET", "/devstoreaccount1/tab1(PartitionKey='100%25',RowKey='%4a')") ==
        "GetEntity devstoreaccount1 table=tab1 pk=100% rk=J verb=GET");
  CHECK(RouteOf("GET", "/devstoreaccount1/tab1()?$filter=RowKey%20eq%20'100%'") ==
        "QueryEntities devstoreaccount1 table=tab1 verb=GET q=$filter=RowKey eq '100%'");
}

TEST_CASE("router: batch, ACL, service properties and stats", "[router]") {
  CHECK(RouteOf("POST", "/devstoreaccount1/$batch") ==
        "EntityGroupTransaction devstoreaccount1 verb=POST");
  CHECK(RouteOf("GET", "/devstoreaccount1/$batch") == "error UnsupportedHttpVerb");
  CHECK(RouteOf("GET", "/devstoreaccount1/mytable?comp=acl") ==
        "GetTableACL devstoreaccount1 table=mytable verb=GET q=comp=acl");
  CHECK(RouteOf("PUT", "/devstoreaccount1/mytable?comp=acl") ==
        "SetTableACL devstoreaccount1 table=mytable verb=PUT q=comp=acl");
  CHECK(RouteOf("DELETE", "/devstoreaccount1/mytable?comp=acl") == "error UnsupportedHttpVerb");
  CHECK(RouteOf("GET", "/devstoreaccount1/mytable?comp=list") ==
        "error InvalidQueryParameterValue");
  CHECK(RouteOf("GET", "/devstoreaccount1/?restype=service&comp=properties") ==
        "GetTableServiceProperties devstoreaccount1 verb=GET q=restype=service&comp=properties");
  CHECK(RouteOf("PUT", "/devstoreaccount1?restype=service&comp=properties") ==
        "SetTableServiceProperties devstoreaccount1 verb=PUT q=restype=service&comp=properties");
  CHECK(RouteOf("GET", "/devstoreaccount1-secondary/?restype=service&comp=stats") ==
        "GetTableServiceStats devstoreaccount1-secondary verb=GET q=restype=service&comp=stats");
  CHECK(RouteOf("GET", "/devstoreaccount1/?restype=service&comp=stats") ==
        "error InvalidQueryParameterValue");
  CHECK(RouteOf("GET", "/devstoreaccount1/?restype=service&comp=bogus") ==
        "error InvalidQueryParameterValue");
}

TEST_CASE("router: X-HTTP-Method tunnels POST and fails with the service's exact codes",
          "[router]") {
  const std::string entity = "/myacct/tab1(PartitionKey='a',RowKey='b')";
  CHECK(RouteOf("POST", entity, {{"X-HTTP-Method", "MERGE"}}) ==
        "InsertOrMergeEntity myacct table=tab1 pk=a rk=b verb=MERGE");
  CHECK(RouteOf("POST", entity, {{"X-HTTP-Method", "MERGE"}, {"If-Match", "*"}}) ==
        "MergeEntity myacct table=tab1 pk=a rk=b verb=MERGE");
  CHECK(RouteOf("POST", entity, {{"X-HTTP-Method", "DELETE"}, {"If-Match", "*"}}) ==
        "DeleteEntity myacct table=tab1 pk=a rk=b verb=DELETE");
  CHECK(RouteOf("POST", entity, {{"x-http-method", "PUT"}}) ==
        "InsertOrReplaceEntity myacct table=tab1 pk=a rk=b verb=PUT");
  CHECK(RouteOf("POST", entity, {{"X-HTTP-Method", "MERGE"}, {"X-HTTP-Method", "MERGE"}}) ==
        "error XMethodIncorrectCount");
  CHECK(RouteOf("PUT", entity, {{"X-HTTP-Method", "MERGE"}}) == "error XMethodNotUsingPost");
  CHECK(RouteOf("POST", entity, {{"X-HTTP-Method", "PATCH"}}) == "error XMethodIncorrectValue");
  CHECK(RouteOf("POST", entity, {{"X-HTTP-Method", "merge"}}) == "error XMethodIncorrectValue");
}

TEST_CASE("router: OPTIONS is a preflight on any path and the raw path is kept for signing",
          "[router]") {
  CHECK(RouteOf("OPTIONS", "/devstoreaccount1/anything(at='all')") ==
        "Preflight devstoreaccount1 verb=OPTIONS");
  auto route = RouteRequest(Make("GET", "/devstoreaccount1/Tables(%27tab1%27)?$format=json"));
  REQUIRE(route);
  CHECK(route->raw_path == "/devstoreaccount1/Tables(%27tab1%27)");
  auto absolute = RouteRequest(Make("GET", "http://127.0.0.1:10002/devstoreaccount1/Tables"));
  REQUIRE(absolute);
  CHECK(absolute->raw_path == "/devstoreaccount1/Tables");
  CHECK(OperationName(Operation::kPreflight) == "Preflight");
  CHECK(OperationName(Operation::kInsertOrMergeEntity) == "InsertOrMergeEntity");
}

}  // namespace malachite::server

namespace malachite::server {
namespace {

TEST_CASE("router: routing into a reused Route overwrites every field of the previous route",
          "[router]") {
  const std::vector<std::pair<std::string, std::string>> requests = {
      {"GET", "/devstoreaccount1/Tables('tab1')?$format=json"},
      {"PUT", "/devstoreaccount1-secondary/t2(PartitionKey='p%27q',RowKey='r')"},
      {"POST", "/devstoreaccount1/mytable"},
      {"GET", "/devstoreaccount1/?restype=service&comp=properties"},
      {"DELETE", "/devstoreaccount1/t3(PartitionKey='a',RowKey='b')"},
      {"POST", "/devstoreaccount1/bad%zzname"},
      {"POST", "/devstoreaccount1/%24batch"},
  };
  Route reused;
  for (const auto& [method, target] : requests) {
    const Request request = Make(method, target);
    auto routed = RouteRequest(request, HostRouting{}, reused);
    const std::string in_place =
        routed ? Dump(Result<Route>(reused)) : Dump(Result<Route>(tl::unexpected(routed.error())));
    CHECK(in_place == Dump(RouteRequest(request)));
  }
}

}  // namespace
}  // namespace malachite::server
