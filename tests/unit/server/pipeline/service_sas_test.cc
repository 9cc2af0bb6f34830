// SAS, stored access policies, service properties, stats and CORS through the whole pipeline
// (Service::Handle + the store's writer + Complete) over a real store in a temp dir.
#include <catch2/catch.hpp>

#include "common/datetime.h"
#include "common/encoding.h"
#include "server/auth/sas.h"
#include "server/auth/shared_key.h"
#include "server/http/router.h"
#include "server/http/url_coding.h"
#include "server/pipeline/service.h"
#include "tests/unit/server/service_harness.h"

namespace malachite::server {
namespace {

const DateTime kStart = *ParseIso8601("2026-11-21T05:21:46Z");

class Fixture {
 public:
  Fixture() : harness_(kStart, "malachite-sas") {}
  // A restart of the server on the same data.
  void Open() { harness_.Reopen(); }
  // The snapshots the pipeline has opened so far (ReadCountingStore).
  std::uint64_t reads() const { return harness_.reads(); }

  // Signed with SharedKeyLite (the account owner).
  Response Owner(std::string method, std::string target, std::string body = {},
                 std::vector<Header> headers = {}) {
    return Run(std::move(method), std::move(target), std::move(body), std::move(headers), true);
  }
  // Unsigned: a SAS in the target, or a preflight.
  Response Anonymous(std::string method, std::string target, std::string body = {},
                     std::vector<Header> headers = {}) {
    return Run(std::move(method), std::move(target), std::move(body), std::move(headers), false);
  }

  // A table SAS for `table` signed with the account key: `fields` are the other parameters
  // ("sp=r&se=...&spk=..."), in any order.
  static std::string TableSas(std::string_view table, std::string fields) {
    std::string query = "sv=2019-02-02&tn=" + std::string(table) + "&" + fields;
    return query + "&sig=" + Sign(query, true);
  }
  static std::string AccountSas(std::string fields) {
    std::string query = "sv=2019-02-02&ss=t&" + fields;
    return query + "&sig=" + Sign(query, false);
  }

 private:
  static std::string Sign(const std::string& query, bool table) {
    Request request;
    request.method = "GET";
    request.target = "/devstoreaccount1/Tables?" + query;
    auto route = RouteRequest(request);
    REQUIRE(route);
    const SasToken token = ParseSasToken(route->query);
    const std::string to_sign = table ? TableSasStringToSign("devstoreaccount1", token)
                                      : AccountSasStringToSign("devstoreaccount1", token);
    return PercentEncode(ComputeSignature(*Base64Decode(kDevAccountKey), to_sign).value());
  }

  Response Run(std::string method, std::string target, std::string body,
               std::vector<Header> headers, bool sign) {
    exchange_.Reset();
    Request& request = exchange_.request;
    request.method = std::move(method);
    request.target = "/devstoreaccount1" + std::move(target);
    request.body = std::move(body);
    request.headers = std::move(headers);
    request.remote_address = "127.0.0.1";
    request.headers.push_back({"Host", "127.0.0.1:10002"});
    if (!request.Find("Accept") && request.target.find("comp=") == std::string::npos) {
      request.headers.push_back({"Accept", "application/json;odata=nometadata"});
    }
    auto route = RouteRequest(request);
    if (sign && route) {  // an unroutable request fails before authentication anyway
      request.headers.push_back({"x-ms-date", FormatRfc1123(harness_.clock().Now())});
      testing::SignSharedKeyLite(request, *route);
    }
    harness_.Run(exchange_);
    return exchange_.response;
  }

  testing::ServiceHarness harness_;
  Exchange exchange_;
};

std::string Code(const Response& response) {
  return std::to_string(response.status) + " " +
         std::string(response.Find("x-ms-error-code").value_or(""));
}

// Creates table `name` with entities pk "a".."e" x rk "1".."3".
void Populate(Fixture& f, const std::string& name) {
  REQUIRE(f.Owner("POST", "/Tables", R"({"TableName":")" + name + R"("})",
                  {{"Content-Type", "application/json"}})
              .status == 201);
  for (char pk = 'a'; pk <= 'e'; ++pk) {
    for (char rk = '1'; rk <= '3'; ++rk) {
      std::string body =
          std::string(R"({"PartitionKey":")") + pk + R"(","RowKey":")" + rk + R"("})";
      REQUIRE(f.Owner("POST", "/" + name, body,
                      {{"Content-Type", "application/json"}, {"Prefer", "return-no-content"}})
                  .status == 204);
    }
  }
}

// "pk/rk pk/rk ..." of a nometadata query answer.
std::string Keys(const Response& response) {
  std::string out;
  const std::string& body = response.body;
  for (std::size_t at = body.find("\"PartitionKey\":\""); at != std::string::npos;
       at = body.find("\"PartitionKey\":\"", at + 1)) {
    const std::size_t pk = at + 16;
    const std::size_t rk = body.find("\"RowKey\":\"", pk) + 10;
    if (!out.empty()) out += ' ';
    out +=
        body.substr(pk, body.find('"', pk) - pk) + "/" + body.substr(rk, body.find('"', rk) - rk);
  }
  return out;
}

}  // namespace

TEST_CASE(
    "sas service: a table SAS key range limits queries, hides entities outside it from point "
    "reads and refuses writes outside it",
    "[sas]") {
  Fixture f;
  Populate(f, "orders");
  const std::string sas =
      Fixture::TableSas("Orders", "sp=raud&se=2027-01-01&spk=b&srk=2&epk=d&erk=1");
  CHECK(Keys(f.Anonymous("GET", "/orders()?" + sas)) == "b/2 b/3 c/1 c/2 c/3 d/1");
  // Intersected with the filter's own range, and paged inside the range.
  CHECK(Keys(f.Anonymous("GET", "/orders()?$filter=PartitionKey%20ge%20'c'&" + sas)) ==
        "c/1 c/2 c/3 d/1");
  Response page = f.Anonymous("GET", "/orders()?$top=4&" + sas);
  CHECK(Keys(page) == "b/2 b/3 c/1 c/2");
  const std::string next_pk(*page.Find("x-ms-continuation-NextPartitionKey"));
  const std::string next_rk(*page.Find("x-ms-continuation-NextRowKey"));
  CHECK(Keys(f.Anonymous("GET", "/orders()?$top=4&NextPartitionKey=" + next_pk +
                                    "&NextRowKey=" + next_rk + "&" + sas)) == "c/3 d/1");

  CHECK(f.Anonymous("GET", "/orders(PartitionKey='c',RowKey='9')?" + sas).status == 404);
  // Azure: spec §10.8 — b/1 exists but lies outside the range: a point read does not find it
  // (the .NET SDK's ValidateSasCredentialsWithRowKeyAndPartitionKeyRanges), a write is refused.
  Response outside = f.Anonymous("GET", "/orders(PartitionKey='b',RowKey='1')?" + sas);
  CHECK(Code(outside) == "404 ResourceNotFound");
  CHECK(outside.body.starts_with(R"({"odata.error":{"code":"ResourceNotFound")"));
  CHECK(Code(f.Anonymous("GET", "/orders(PartitionKey='e',RowKey='1')?" + sas)) ==
        "404 ResourceNotFound");
  CHECK(Code(f.Anonymous("PUT", "/orders(PartitionKey='b',RowKey='1')?" + sas,
                         R"({"PartitionKey":"b","RowKey":"1"})",
                         {{"Content-Type", "application/json"}})) == "403 AuthorizationFailure");
  CHECK(Code(f.Anonymous("POST", "/orders?" + sas, R"({"PartitionKey":"z","RowKey":"1"})",
                         {{"Content-Type", "application/json"}})) == "403 AuthorizationFailure");
  CHECK(f.Anonymous("POST", "/orders?" + sas, R"({"PartitionKey":"c","RowKey":"7"})",
                    {{"Content-Type", "application/json"}, {"Prefer", "return-no-content"}})
            .status == 204);
  CHECK(Code(f.Anonymous("DELETE", "/orders(PartitionKey='e',RowKey='1')?" + sas, {},
                         {{"If-Match", "*"}})) == "403 AuthorizationFailure");
  CHECK(Code(f.Anonymous("MERGE", "/orders(PartitionKey='a',RowKey='1')?" + sas,
                         R"({"PartitionKey":"a","RowKey":"1"})",
                         {{"Content-Type", "application/json"}, {"If-Match", "*"}})) ==
        "403 AuthorizationFailure");
}

TEST_CASE("sas service: permissions, table and resource type are enforced per operation", "[sas]") {
  Fixture f;
  Populate(f, "orders");
  Populate(f, "other");
  const std::string read_only = Fixture::TableSas("orders", "sp=r&se=2027-01-01");
  CHECK(Code(f.Anonymous("GET", "/other()?" + read_only)) == "403 AuthorizationFailure");
  CHECK(Code(f.Anonymous("DELETE", "/orders(PartitionKey='a',RowKey='1')?" + read_only, {},
                         {{"If-Match", "*"}})) == "403 AuthorizationPermissionMismatch");
  CHECK(Code(f.Anonymous("GET", "/Tables?" + read_only)) == "403 AuthorizationFailure");
  const std::string objects = Fixture::AccountSas("srt=o&sp=rl&se=2027-01-01");
  CHECK(f.Anonymous("GET", "/other()?" + objects).status == 200);
  CHECK(Code(f.Anonymous("GET", "/Tables?" + objects)) == "403 AuthorizationResourceTypeMismatch");
  const std::string tables = Fixture::AccountSas("srt=c&sp=l&se=2027-01-01");
  CHECK(f.Anonymous("GET", "/Tables?" + tables).status == 200);
  const std::string expired = Fixture::AccountSas("srt=c&sp=l&se=2026-01-01");
  CHECK(Code(f.Anonymous("GET", "/Tables?" + expired)) == "403 AuthenticationFailed");
  CHECK(Code(f.Anonymous("GET", "/orders?comp=acl&" + tables)) == "403 AuthorizationFailure");
}

TEST_CASE("sas service: stored access policies apply at request time and go with the table",
          "[sas]") {
  Fixture f;
  Populate(f, "orders");
  // Azure: spec §4.13 — with the service's byte order mark.
  CHECK(f.Owner("GET", "/orders?comp=acl").body ==
        "\xEF\xBB\xBF"
        R"(<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers />)");
  const std::string acl =
      "<SignedIdentifiers><SignedIdentifier><Id>readers</Id><AccessPolicy>"
      "<Start>2026-01-01T00:00:00Z</Start><Expiry>2027-01-01</Expiry><Permission>r</Permission>"
      "</AccessPolicy></SignedIdentifier></SignedIdentifiers>";
  CHECK(f.Owner("PUT", "/orders?comp=acl", acl, {{"Content-Type", "application/xml"}}).status ==
        204);
  CHECK(f.Owner("GET", "/orders?comp=acl").body ==
        "\xEF\xBB\xBF"
        R"(<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier>)"
        "<Id>readers</Id><AccessPolicy><Start>2026-01-01T00:00:00.0000000Z</Start>"
        "<Expiry>2027-01-01T00:00:00.0000000Z</Expiry><Permission>r</Permission></AccessPolicy>"
        "</SignedIdentifier></SignedIdentifiers>");
  const std::string sas = Fixture::TableSas("orders", "si=readers");
  CHECK(f.Anonymous("GET", "/orders()?" + sas).status == 200);
  // The policies are cached: the next request reads its entities and nothing else.
  const std::uint64_t before = f.reads();
  CHECK(f.Anonymous("GET", "/orders()?" + sas).status == 200);
  CHECK(f.reads() == before + 1);
  CHECK(Code(f.Anonymous("DELETE", "/orders(PartitionKey='a',RowKey='1')?" + sas, {},
                         {{"If-Match", "*"}})) == "403 AuthorizationPermissionMismatch");
  // The policy is removed after the token was issued: the token stops working at once.
  CHECK(f.Owner("PUT", "/orders?comp=acl", "", {{"Content-Type", "application/xml"}}).status ==
        204);
  CHECK(Code(f.Anonymous("GET", "/orders()?" + sas)) == "403 AuthenticationFailed");
  // Policies survive a restart, and Delete Table takes them away.
  CHECK(f.Owner("PUT", "/orders?comp=acl", acl, {{"Content-Type", "application/xml"}}).status ==
        204);
  f.Open();
  CHECK(f.Anonymous("GET", "/orders()?" + sas).status == 200);
  CHECK(f.Owner("DELETE", "/Tables('orders')").status == 204);
  Populate(f, "orders");
  CHECK(Code(f.Anonymous("GET", "/orders()?" + sas)) == "403 AuthenticationFailed");
  CHECK(f.Owner("GET", "/orders?comp=acl").body.ends_with("<SignedIdentifiers />"));
}

TEST_CASE("sas service: ACL errors use the service's codes", "[sas]") {
  Fixture f;
  Populate(f, "orders");
  std::string six = "<SignedIdentifiers>";
  for (int i = 0; i < 6; ++i) {
    six += "<SignedIdentifier><Id>id" + std::to_string(i) + "</Id></SignedIdentifier>";
  }
  six += "</SignedIdentifiers>";
  Response too_many =
      f.Owner("PUT", "/orders?comp=acl", six, {{"Content-Type", "application/xml"}});
  CHECK(Code(too_many) == "400 InvalidXmlDocument");
  CHECK(too_many.body.find("<m:error") != std::string::npos);
  CHECK(Code(f.Owner("GET", "/missing?comp=acl")) == "404 TableNotFound");
}

TEST_CASE("sas service: service properties merge partial updates and survive a restart", "[sas]") {
  Fixture f;
  const std::string defaults = f.Owner("GET", "/?restype=service&comp=properties").body;
  CHECK(defaults ==
        "\xEF\xBB\xBF"
        R"(<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties><Logging>)"
        "<Version>1.0</Version><Read>false</Read><Write>false</Write><Delete>false</Delete>"
        "<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging><HourMetrics>"
        "<Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>true</IncludeAPIs>"
        "<RetentionPolicy><Enabled>true</Enabled><Days>7</Days></RetentionPolicy></HourMetrics>"
        "<MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy>"
        "<Enabled>false</Enabled></RetentionPolicy></MinuteMetrics><Cors />"
        "</StorageServiceProperties>");
  const std::string cors =
      "<StorageServiceProperties><Cors><CorsRule><AllowedOrigins>http://app.example"
      "</AllowedOrigins><AllowedMethods>GET,POST</AllowedMethods><AllowedHeaders>x-ms-*,"
      "content-type</AllowedHeaders><ExposedHeaders>x-ms-request-id</ExposedHeaders>"
      "<MaxAgeInSeconds>60</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>";
  CHECK(f.Owner("PUT", "/?restype=service&comp=properties", cors,
                {{"Content-Type", "application/xml"}})
            .status == 202);
  f.Open();
  const std::string stored = f.Owner("GET", "/?restype=service&comp=properties").body;
  CHECK(stored.find("<HourMetrics><Version>1.0</Version><Enabled>true</Enabled>") !=
        std::string::npos);
  CHECK(stored.find("<Cors><CorsRule><AllowedOrigins>http://app.example</AllowedOrigins>"
                    "<AllowedMethods>GET,POST</AllowedMethods><AllowedHeaders>x-ms-*,content-"
                    "type</AllowedHeaders><ExposedHeaders>x-ms-request-id</ExposedHeaders>"
                    "<MaxAgeInSeconds>60</MaxAgeInSeconds></CorsRule></Cors>") !=
        std::string::npos);
  CHECK(Code(f.Owner("PUT", "/?restype=service&comp=properties",
                     "<StorageServiceProperties><HourMetrics><Version>1.0</Version><Enabled>"
                     "false</Enabled><IncludeAPIs>true</IncludeAPIs><RetentionPolicy><Enabled>"
                     "false</Enabled></RetentionPolicy></HourMetrics></StorageServiceProperties>",
                     {{"Content-Type", "application/xml"}})) == "400 InvalidXmlDocument");
}

TEST_CASE("sas service: preflight and actual requests follow the stored CORS rules", "[sas]") {
  Fixture f;
  Populate(f, "orders");
  const std::vector<Header> preflight = {
      {"Origin", "http://app.example"},
      {"Access-Control-Request-Method", "POST"},
      {"Access-Control-Request-Headers", "content-type,x-ms-date"}};
  CHECK(Code(f.Anonymous("OPTIONS", "/orders", {}, preflight)) == "403 CorsPreflightFailure");
  REQUIRE(f.Owner("PUT", "/?restype=service&comp=properties",
                  "<StorageServiceProperties><Cors><CorsRule><AllowedOrigins>http://app.example"
                  "</AllowedOrigins><AllowedMethods>GET,POST</AllowedMethods><AllowedHeaders>"
                  "x-ms-*,content-type</AllowedHeaders><ExposedHeaders>x-ms-request-id"
                  "</ExposedHeaders><MaxAgeInSeconds>60</MaxAgeInSeconds></CorsRule></Cors>"
                  "</StorageServiceProperties>",
                  {{"Content-Type", "application/xml"}})
              .status == 202);
  Response ok = f.Anonymous("OPTIONS", "/orders", {}, preflight);
  CHECK(ok.status == 200);
  CHECK(ok.Find("Access-Control-Allow-Origin") ==
        std::optional<std::string_view>("http://app.example"));
  CHECK(ok.Find("Access-Control-Allow-Methods") == std::optional<std::string_view>("POST"));
  CHECK(ok.Find("Access-Control-Allow-Headers") ==
        std::optional<std::string_view>("content-type,x-ms-date"));
  CHECK(ok.Find("Access-Control-Max-Age") == std::optional<std::string_view>("60"));
  CHECK(ok.Find("Access-Control-Allow-Credentials") == std::optional<std::string_view>("true"));
  CHECK(Code(f.Anonymous(
            "OPTIONS", "/orders", {},
            {{"Origin", "http://evil.example"}, {"Access-Control-Request-Method", "GET"}})) ==
        "403 CorsPreflightFailure");
  CHECK(Code(f.Anonymous("OPTIONS", "/orders", {}, {{"Origin", "http://app.example"}})) ==
        "400 InvalidHeaderValue");

  const std::string sas = Fixture::TableSas("orders", "sp=r&se=2027-01-01");
  Response actual = f.Anonymous("GET", "/orders()?" + sas, {}, {{"Origin", "http://app.example"}});
  CHECK(actual.status == 200);
  CHECK(actual.Find("Access-Control-Allow-Origin") ==
        std::optional<std::string_view>("http://app.example"));
  CHECK(actual.Find("Access-Control-Expose-Headers") ==
        std::optional<std::string_view>("x-ms-request-id"));
  CHECK(actual.Find("Vary") == std::optional<std::string_view>("Origin"));
  Response stranger =
      f.Anonymous("GET", "/orders()?" + sas, {}, {{"Origin", "http://evil.example"}});
  CHECK_FALSE(stranger.Find("Access-Control-Allow-Origin"));
  CHECK(stranger.Find("Vary") == std::optional<std::string_view>("Origin"));
  CHECK_FALSE(f.Anonymous("GET", "/orders()?" + sas).Find("Vary"));
}

TEST_CASE("sas service: CORS rules are read once per change and follow a Set at once", "[sas]") {
  Fixture f;
  Populate(f, "orders");
  auto set_origin = [&](std::string_view origin) {
    return f
        .Owner("PUT", "/?restype=service&comp=properties",
               "<StorageServiceProperties><Cors><CorsRule><AllowedOrigins>" + std::string(origin) +
                   "</AllowedOrigins><AllowedMethods>GET</AllowedMethods><AllowedHeaders>"
                   "</AllowedHeaders><ExposedHeaders></ExposedHeaders><MaxAgeInSeconds>60"
                   "</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>",
               {{"Content-Type", "application/xml"}})
        .status;
  };
  auto allowed = [&](std::string_view origin) {
    Response response = f.Owner("GET", "/orders(PartitionKey='a',RowKey='1')", {},
                                {{"Origin", std::string(origin)}});
    return std::string(response.Find("Access-Control-Allow-Origin").value_or("-"));
  };
  REQUIRE(set_origin("http://a.example") == 202);
  CHECK(allowed("http://a.example") == "http://a.example");
  // The rules are cached: the next request reads the entity and nothing else.
  const std::uint64_t before = f.reads();
  CHECK(allowed("http://a.example") == "http://a.example");
  CHECK(f.reads() == before + 1);
  REQUIRE(set_origin("http://b.example") == 202);
  CHECK(allowed("http://b.example") == "http://b.example");
  CHECK(allowed("http://a.example") == "-");
}

TEST_CASE("sas service: service stats answer on the secondary account only", "[sas]") {
  Fixture f;
  Response primary = f.Owner("GET", "/?restype=service&comp=stats");
  CHECK(Code(primary) == "400 InvalidQueryParameterValue");
  Response secondary = f.Owner("GET", "-secondary/?restype=service&comp=stats");
  CHECK(secondary.status == 200);
  CHECK(secondary.body.starts_with(
      R"(<?xml version="1.0" encoding="utf-8"?><StorageServiceStats><GeoReplication>)"
      "<Status>live</Status><LastSyncTime>Sat, 21 Nov 2026 05:21:46 GMT</LastSyncTime>"));
}

}  // namespace malachite::server
