// The whole synchronous pipeline with a real store in a temp dir: Service::Handle, the store's
// writer, Service::Complete.
#include "server/pipeline/service.h"

#include <catch2/catch.hpp>

#include "common/datetime.h"
#include "common/encoding.h"
#include "server/auth/shared_key.h"
#include "server/http/router.h"
#include "tests/unit/server/service_harness.h"

namespace malachite::server {
namespace {

const DateTime kStart = *ParseIso8601("2026-11-21T05:21:46Z");

class ServiceFixture {
 public:
  ServiceFixture() : harness_(kStart, "malachite-service") {}

  // Runs one request, signed with SharedKeyLite unless `sign` is false, through Handle (+ the
  // store + Complete for writes) and returns the exchange's response.
  Response Run(std::string method, std::string target, std::string body = {},
               std::vector<Header> headers = {}, bool sign = true) {
    exchange_.Reset();
    Request& request = exchange_.request;
    request.method = std::move(method);
    request.target = std::move(target);
    request.body = std::move(body);
    request.headers = std::move(headers);
    request.headers.push_back({"Host", "127.0.0.1:10002"});
    request.headers.push_back({"x-ms-date", FormatRfc1123(signed_at_.value_or(clock().Now()))});
    if (sign) {
      auto route = RouteRequest(request);
      REQUIRE(route);
      testing::SignSharedKeyLite(request, *route);
    }
    harness_.Run(exchange_);
    return exchange_.response;
  }

  ManualClock& clock() { return harness_.clock(); }
  // Requests are dated (and signed) at `t` instead of the clock's time.
  void SignAt(DateTime t) { signed_at_ = t; }

 private:
  testing::ServiceHarness harness_;
  std::optional<DateTime> signed_at_;
  Exchange exchange_;
};

// "<status>\n<name>: <value>\n...\n\n<body>" with the random request id replaced by <id>.
std::string Dump(const Response& response) {
  std::string id(response.Find("x-ms-request-id").value_or(""));
  std::string out = std::to_string(response.status) + "\n";
  for (const auto& header : response.headers) {
    std::string value = header.value;
    if (!id.empty() && value == id) value = "<id>";
    out += header.name + ": " + value + "\n";
  }
  std::string body = response.body;
  if (!id.empty()) {
    for (std::size_t pos; (pos = body.find(id)) != std::string::npos;)
      body.replace(pos, id.size(), "<id>");
  }
  return out + "\n" + body;
}

const std::vector<Header> kJson = {{"Accept", "application/json;odata=minimalmetadata"},
                                   {"Content-Type", "application/json"},
                                   {"x-ms-version", "2019-02-02"}};

}  // namespace

TEST_CASE("service: a create-table round trip carries every common header", "[service]") {
  ServiceFixture f;
  auto headers = kJson;
  headers.push_back({"x-ms-client-request-id", "client-1"});
  Response created =
      f.Run("POST", "/devstoreaccount1/Tables", R"({"TableName":"orders"})", headers);
  std::string dump = Dump(created);
  CHECK(created.status == 201);
  CHECK(dump.find("x-ms-request-id: <id>\nx-ms-version: 2019-02-02\n"
                  "Date: Sat, 21 Nov 2026 05:21:46 GMT\n"
                  "Server: Malachite/0.1 Windows-Azure-Table/1.0\n"
                  "x-ms-client-request-id: client-1\nCache-Control: no-cache\n"
                  "X-Content-Type-Options: nosniff\nDataServiceVersion: 3.0;\n") !=
        std::string::npos);
  CHECK(
      created.body.find(
          R"("odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables/@Element")") !=
      std::string::npos);
  CHECK(created.Find("x-ms-request-id")->size() == 36);

  Response inserted = f.Run("POST", "/devstoreaccount1/orders",
                            R"({"PartitionKey":"p","RowKey":"r","Qty":3})", kJson);
  CHECK(inserted.status == 201);
  Response got = f.Run("GET", "/devstoreaccount1/orders(PartitionKey='p',RowKey='r')", {}, kJson);
  CHECK(got.status == 200);
  CHECK(got.body.find(R"("Qty":3)") != std::string::npos);
  CHECK(got.Find("ETag") == inserted.Find("ETag"));
}

TEST_CASE("service: an unsigned request is refused with a JSON AuthenticationFailed", "[service]") {
  ServiceFixture f;
  Response response = f.Run("GET", "/devstoreaccount1/Tables", {}, kJson, false);
  CHECK(
      Dump(response) ==
      "403\nContent-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8\n"
      "x-ms-error-code: AuthenticationFailed\nx-ms-request-id: <id>\nx-ms-version: 2019-02-02\n"
      "Date: Sat, 21 Nov 2026 05:21:46 GMT\nServer: Malachite/0.1 Windows-Azure-Table/1.0\n"
      "Cache-Control: no-cache\nX-Content-Type-Options: nosniff\nDataServiceVersion: 3.0;\n\n"
      R"({"odata.error":{"code":"AuthenticationFailed","message":{"lang":"en-US","value":"Server )"
      "failed to authenticate the request. Make sure the value of Authorization header is formed "
      R"(correctly including the signature.\nRequestId:<id>\nTime:2026-11-21T05:21:46.0000000Z"}}})");
}

TEST_CASE("service: a request dated 16 minutes ago fails and the XML form carries the detail",
          "[service]") {
  ServiceFixture f;
  std::vector<Header> headers = {{"Accept", "application/xml"}};
  const std::string target = "/devstoreaccount1/?restype=service&comp=properties";
  f.SignAt(kStart);
  CHECK(f.Run("GET", target, {}, headers).status != 403);
  f.clock().Advance(16 * 60 * kTicksPerSecond);
  Response stale = f.Run("GET", target, {}, headers);
  CHECK(stale.status == 403);
  CHECK(stale.Find("Content-Type") == "application/xml");
  CHECK(stale.body.find("<Error><Code>AuthenticationFailed</Code>") != std::string::npos);
  CHECK(stale.body.find("<AuthenticationErrorDetail>Request date header too old: &apos;Sat, 21 "
                        "Nov 2026 05:21:46 GMT&apos;</AuthenticationErrorDetail></Error>") !=
        std::string::npos);
}

TEST_CASE("service: routing, version and size failures are rendered with the echoed version",
          "[service]") {
  ServiceFixture f;
  Response bad_uri = f.Run("GET", "/devstoreaccount1/tab1(PartitionKey='a')", {}, kJson, false);
  CHECK(bad_uri.status == 400);
  CHECK(bad_uri.Find("x-ms-error-code") == "InvalidUri");

  std::vector<Header> old = {{"x-ms-version", "2001-01-01"}, {"Accept", "application/json"}};
  Response bad_version = f.Run("GET", "/devstoreaccount1/Tables", {}, old);
  CHECK(bad_version.Find("x-ms-error-code") == "InvalidHeaderValue");
  CHECK(bad_version.Find("x-ms-version") == "2019-02-02");

  Response too_large =
      f.Run("POST", "/devstoreaccount1/orders", std::string(4 * 1024 * 1024 + 1, ' '), kJson);
  CHECK(too_large.status == 413);
  CHECK(too_large.Find("x-ms-error-code") == "RequestBodyTooLarge");

  Response verbose =
      f.Run("GET", "/devstoreaccount1/Tables", {}, {{"Accept", "application/json;odata=verbose"}});
  CHECK(verbose.status == 415);
  CHECK(verbose.Find("x-ms-error-code") == "JsonVerboseFormatNotSupported");
}

TEST_CASE("service: a Host that is not visible ASCII is not echoed into bodies and Location",
          "[service]") {
  ServiceFixture f;
  auto headers = kJson;
  headers.insert(headers.begin(), Header{"Host", "h\xff\"st:1"});
  Response created =
      f.Run("POST", "/devstoreaccount1/Tables", R"({"TableName":"orders"})", headers);
  CHECK(created.status == 201);
  CHECK(created.Find("Location") == "http://127.0.0.1:10002/devstoreaccount1/Tables('orders')");
  CHECK(created.body ==
        R"({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables/@Element",)"
        R"("TableName":"orders"})");
  headers.front().value = "localhost:10002";
  Response listed = f.Run("GET", "/devstoreaccount1/Tables", {}, headers);
  CHECK(listed.body.find(R"("http://localhost:10002/devstoreaccount1/$metadata#Tables")") !=
        std::string::npos);
}

TEST_CASE("service: preflight requests are not authenticated", "[service]") {
  ServiceFixture f;
  Response response =
      f.Run("OPTIONS", "/devstoreaccount1/Tables", {},
            {{"Origin", "http://example.com"}, {"Access-Control-Request-Method", "GET"}}, false);
  // Without CORS rules the preflight fails as a preflight, not as an unauthenticated request.
  CHECK(response.Find("x-ms-error-code") ==
        std::optional<std::string_view>("CorsPreflightFailure"));
  CHECK_FALSE(response.Find("DataServiceVersion"));
}

TEST_CASE("service: the secondary refuses every write with InsufficientAccountPermissions",
          "[service]") {
  ServiceFixture f;
  REQUIRE(f.Run("POST", "/devstoreaccount1/Tables", R"({"TableName":"orders"})", kJson).status ==
          201);
  // Azure: spec §1.1 — the service's answer to a write on the secondary, as recorded (the Python
  // SDK's test_table_client_location_mode): 403, JSON odata.error, nothing applied.
  Response created =
      f.Run("POST", "/devstoreaccount1-secondary/Tables", R"({"TableName":"more"})", kJson);
  CHECK(created.status == 403);
  CHECK(created.Find("x-ms-error-code") ==
        std::optional<std::string_view>("InsufficientAccountPermissions"));
  CHECK(created.body.starts_with(
      R"({"odata.error":{"code":"InsufficientAccountPermissions","message":{"lang":"en-US",)"
      R"("value":"Write operations are not allowed.\nRequestId:)"));
  const std::string entity = R"({"PartitionKey":"p","RowKey":"r"})";
  const std::string key = "/devstoreaccount1-secondary/orders(PartitionKey='p',RowKey='r')";
  auto if_match = kJson;
  if_match.push_back({"If-Match", "*"});
  const std::string batch =
      "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n--changeset_1\r\n"
      "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
      "POST http://127.0.0.1:10002/devstoreaccount1/orders HTTP/1.1\r\n"
      "Content-Type: application/json\r\n\r\n" +
      entity + "\r\n--changeset_1--\r\n--batch_1--\r\n";
  auto multipart = kJson;
  multipart.push_back({"Content-Type", "multipart/mixed; boundary=batch_1"});
  const std::string acl = R"(<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers />)";
  const std::string props = "<StorageServiceProperties><Cors /></StorageServiceProperties>";
  struct Write {
    const char* method;
    std::string target;
    std::string body;
    std::vector<Header> headers;
  };
  for (const Write& write : std::vector<Write>{
           {"POST", "/devstoreaccount1-secondary/orders", entity, kJson},
           {"PUT", key, entity, kJson},
           {"PATCH", key, entity, kJson},
           {"MERGE", key, entity, if_match},
           {"PUT", key, entity, if_match},
           {"DELETE", key, {}, if_match},
           {"DELETE", "/devstoreaccount1-secondary/Tables('orders')", {}, kJson},
           {"POST", "/devstoreaccount1-secondary/$batch", batch, multipart},
           {"PUT", "/devstoreaccount1-secondary/orders?comp=acl", acl, {}},
           {"PUT", "/devstoreaccount1-secondary/?restype=service&comp=properties", props, {}},
       }) {
    INFO(write.method << " " << write.target);
    Response refused = f.Run(write.method, write.target, write.body, write.headers);
    CHECK(testing::StatusAndCode(refused) == "403 InsufficientAccountPermissions");
  }
  // Reads keep working there, and nothing of the refused writes was applied.
  CHECK(f.Run("GET", "/devstoreaccount1-secondary/Tables", {}, kJson).body ==
        R"({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables",)"
        R"("value":[{"TableName":"orders"}]})");
  CHECK(testing::StatusAndCode(f.Run("GET", key, {}, kJson)) == "404 ResourceNotFound");
  CHECK(f.Run("GET", "/devstoreaccount1-secondary/orders?comp=acl").status == 200);
}

TEST_CASE("service: a table name before the resource gets the service's answer for each shape",
          "[service]") {
  // Azure: spec §1.2 — the Python SDK's test_client_with_url_ends_with_table_name, recorded: the
  // table is resolved first, then the rest of the path.
  ServiceFixture f;
  const std::string body = R"({"TableName":"mytable"})";
  CHECK(testing::StatusAndCode(f.Run("POST", "/devstoreaccount1/mytable/Tables", body, kJson)) ==
        "404 TableNotFound");
  CHECK(testing::StatusAndCode(f.Run("GET", "/devstoreaccount1/mytable/Tables", {}, kJson)) ==
        "404 TableNotFound");
  CHECK(testing::StatusAndCode(f.Run("DELETE", "/devstoreaccount1/mytable/Tables('mytable')", {},
                                     kJson)) == "404 TableNotFound");
  REQUIRE(f.Run("POST", "/devstoreaccount1/Tables", body, kJson).status == 201);
  CHECK(testing::StatusAndCode(f.Run("POST", "/devstoreaccount1/mytable/Tables", body, kJson)) ==
        "400 PropertiesNeedValue");
  CHECK(testing::StatusAndCode(f.Run("GET", "/devstoreaccount1/mytable/Tables", {}, kJson)) ==
        "501 NotImplemented");
  Response deleted = f.Run("DELETE", "/devstoreaccount1/mytable/Tables('mytable')", {}, kJson);
  CHECK(testing::StatusAndCode(deleted) == "400 InvalidInput");
  CHECK(deleted.body.find(
            R"("value":"The number of keys specified in the URI does not match number of key )"
            R"(properties for the resource 'devstoreaccount1.mytable'.\nRequestId:)") !=
        std::string::npos);
  // Service properties under the table name: the query parameters are what is wrong.
  Response properties = f.Run("GET", "/devstoreaccount1/mytable/?restype=service&comp=properties",
                              {}, {{"Accept", "application/xml"}}, false);
  CHECK(testing::StatusAndCode(properties) == "400 InvalidQueryParameterValue");
  CHECK(properties.body.find("<m:code>InvalidQueryParameterValue</m:code>") != std::string::npos);
  // The table is still there, and holds nothing.
  CHECK(
      f.Run("GET", "/devstoreaccount1/mytable()", {}, kJson).body ==
      R"({"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#mytable","value":[]})");
}

}  // namespace malachite::server
