// Throttling and fault rules through the whole synchronous pipeline (Service::Handle, the
// store's writer, Service::Complete) with a real store and a ManualClock: a refused request is
// answered 503 ServerBusy before anything of it is applied.
#include <catch2/catch.hpp>

#include "common/datetime.h"
#include "common/encoding.h"
#include "server/auth/shared_key.h"
#include "server/http/router.h"
#include "server/pipeline/service.h"
#include "server/traffic/traffic_endpoints.h"
#include "tests/unit/server/service_harness.h"

namespace malachite::server {
namespace {

const DateTime kStart = *ParseIso8601("2026-11-21T05:21:46Z");
constexpr std::int64_t kMs = kTicksPerSecond / 1000;

class Fixture {
 public:
  // Partitions take 5 entities at once and 5 per second; the account 1,000.
  explicit Fixture(ThrottleConfig throttle = Small())
      : harness_(kStart, "malachite-throttle", WithThrottle(std::move(throttle))) {}

  static ServerConfig WithThrottle(ThrottleConfig throttle) {
    ServerConfig config;
    config.throttle = std::move(throttle);
    return config;
  }
  static ThrottleConfig Small() {
    ThrottleConfig throttle;
    throttle.partition_rate = 5;
    throttle.account_rate = 1000;
    return throttle;
  }

  // "<status>" or "<status> <x-ms-error-code>" of a signed request run through the pipeline.
  std::string Run(std::string method, std::string target, std::string body = {},
                  std::string content_type = "application/json") {
    exchange_.Reset();
    Request& request = exchange_.request;
    testing::MakeJsonRequest(request, std::move(method), std::move(target), std::move(body),
                             clock().Now(), "application/json;odata=minimalmetadata",
                             std::move(content_type));
    auto route = RouteRequest(request);
    REQUIRE(route);
    testing::SignSharedKeyLite(request, *route);
    harness_.Run(exchange_);
    return testing::StatusAndCode(exchange_.response);
  }

  std::string Insert(std::string_view pk, std::string_view rk) {
    return Run(
        "POST", "orders",
        R"({"PartitionKey":")" + std::string(pk) + R"(","RowKey":")" + std::string(rk) + R"("})");
  }

  // An admin request (GET /-/...) answered by the throttling endpoints.
  Response Admin(std::string method, std::string target, std::string body = {}) {
    Request request;
    request.method = std::move(method);
    request.target = std::move(target);
    request.body = std::move(body);
    Response response;
    HandleTrafficRequest(harness_.service().traffic(), request, response);
    return response;
  }

  const Response& last() const { return exchange_.response; }
  const Exchange& exchange() const { return exchange_; }
  ManualClock& clock() { return harness_.clock(); }
  // The snapshots the pipeline has opened so far (ReadCountingStore).
  std::uint64_t reads() const { return harness_.reads(); }

 private:
  testing::ServiceHarness harness_;
  Exchange exchange_;
};

std::string Batch(std::string_view pk, int first, int count) {
  std::string body = "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n";
  for (int i = first; i < first + count; ++i) {
    body +=
        "--changeset_1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n"
        "\r\nPOST http://127.0.0.1:10002/devstoreaccount1/orders HTTP/1.1\r\n"
        "Content-Type: application/json\r\nAccept: application/json;odata=minimalmetadata\r\n\r\n"
        R"({"PartitionKey":")" +
        std::string(pk) + R"(","RowKey":"r)" + std::to_string(i) + "\"}\r\n";
  }
  return body + "--changeset_1--\r\n--batch_1--\r\n";
}

}  // namespace

TEST_CASE(
    "throttling: an insert over the partition rate gets the service's 503 ServerBusy and "
    "is not applied",
    "[throttle][service]") {
  Fixture f;
  CHECK(f.Run("POST", "Tables", R"({"TableName":"orders"})") == "201");
  for (int i = 0; i < 5; ++i) CHECK(f.Insert("p", "r" + std::to_string(i)) == "201");
  CHECK(f.Insert("p", "r5") == "503 ServerBusy");
  // Azure: spec §12.2 — the JSON error body, no Retry-After.
  CHECK(f.last().body.find(R"({"odata.error":{"code":"ServerBusy","message":{"lang":"en-US",)"
                           R"("value":"The server is busy.\nRequestId:)") == 0);
  CHECK(!f.last().Find("Retry-After"));
  CHECK(f.Insert("q", "r5") == "201");  // another partition is not affected
  f.clock().Advance(10 * kTicksPerSecond);
  CHECK(f.Run("GET", "orders(PartitionKey='p',RowKey='r5')") == "404 ResourceNotFound");
  CHECK(f.Run("GET", "orders(PartitionKey='p',RowKey='r4')") == "200");
}

TEST_CASE("throttling: a batch of N counts N and a refused batch applies none of its operations",
          "[throttle][service]") {
  Fixture f;
  auto batch = [&](int first, int count) {
    return f.Run("POST", "$batch", Batch("p", first, count), "multipart/mixed; boundary=batch_1");
  };
  CHECK(f.Run("POST", "Tables", R"({"TableName":"orders"})") == "201");
  CHECK(f.Insert("p", "a") == "201");
  CHECK(f.Insert("p", "b") == "201");
  CHECK(batch(0, 4) == "503 ServerBusy");  // 2 + 4 > 5
  CHECK(batch(0, 3) == "202");
  f.clock().Advance(10 * kTicksPerSecond);
  CHECK(f.Run("GET", "orders(PartitionKey='p',RowKey='r2')") == "200");
  CHECK(f.Run("GET", "orders(PartitionKey='p',RowKey='r3')") == "404 ResourceNotFound");
}

TEST_CASE("throttling: a query is charged every entity it scanned, and the next request waits",
          "[throttle][service]") {
  Fixture f;
  CHECK(f.Run("POST", "Tables", R"({"TableName":"orders"})") == "201");
  for (int i = 0; i < 5; ++i) CHECK(f.Insert("p", "r" + std::to_string(i)) == "201");
  f.clock().Advance(10 * kTicksPerSecond);
  // Scans the partition's 5 entities and returns none: 5 entities count.
  CHECK(f.Run("GET", "orders()?$filter=PartitionKey%20eq%20'p'%20and%20Qty%20eq%201") == "200");
  CHECK(f.Run("GET", "orders(PartitionKey='p',RowKey='r1')") == "503 ServerBusy");
  f.clock().Advance(200 * kMs);  // one entity's worth at 5/s
  CHECK(f.Run("GET", "orders(PartitionKey='p',RowKey='r1')") == "200");
  const std::string metrics = f.Admin("GET", "/-/metrics").body;
  CHECK(metrics.find("malachite_entities_total{kind=\"scanned\"} 6\n") != std::string::npos);
  CHECK(metrics.find("malachite_entities_total{kind=\"written\"} 5\n") != std::string::npos);
  CHECK(metrics.find("malachite_throttled_requests_total{limit=\"partition\"} 1\n") !=
        std::string::npos);
  CHECK(metrics.find("malachite_requests_total{operation=\"GetEntity\",status=\"503\"} 1\n") !=
        std::string::npos);
}

TEST_CASE("order: a point read and a query refused by the throttle read nothing",
          "[throttle][service]") {
  Fixture f;
  CHECK(f.Run("POST", "Tables", R"({"TableName":"orders"})") == "201");
  for (int i = 0; i < 5; ++i) CHECK(f.Insert("p", "r" + std::to_string(i)) == "201");
  // Partition p has taken its 5: the throttle refuses before the store is asked for a snapshot.
  const std::uint64_t before = f.reads();
  CHECK(f.Run("GET", "orders(PartitionKey='p',RowKey='r1')") == "503 ServerBusy");
  CHECK(f.Run("GET", "orders()?$filter=PartitionKey%20eq%20'p'") == "503 ServerBusy");
  CHECK(f.reads() == before);
  const std::string metrics = f.Admin("GET", "/-/metrics").body;
  CHECK(metrics.find("malachite_entities_total{kind=\"scanned\"} 0\n") != std::string::npos);
  // Admitted, each reads one snapshot; the query is charged the 5 entities it scanned.
  f.clock().Advance(10 * kTicksPerSecond);
  CHECK(f.Run("GET", "orders(PartitionKey='p',RowKey='r1')") == "200");
  CHECK(f.reads() == before + 1);
  CHECK(f.Run("GET", "orders()?$filter=PartitionKey%20eq%20'p'") == "200");
  CHECK(f.reads() == before + 2);
  CHECK(f.Run("GET", "orders(PartitionKey='p',RowKey='r1')") == "503 ServerBusy");
  CHECK(f.reads() == before + 2);
}

TEST_CASE("order: every read refused by a fault rule reads nothing", "[throttle][service]") {
  Fixture f;
  CHECK(f.Run("POST", "Tables", R"({"TableName":"orders"})") == "201");
  CHECK(f.Insert("p", "r") == "201");
  CHECK(f.Admin("POST", "/-/faults", R"({"fault":"ServerBusy","table":"orders"})").status == 201);
  CHECK(f.Admin("POST", "/-/faults", R"({"fault":"OperationTimedOut","operation":"QueryTables"})")
            .status == 201);
  const std::uint64_t before = f.reads();
  CHECK(f.Run("GET", "orders(PartitionKey='p',RowKey='r')") == "503 ServerBusy");
  CHECK(f.Run("GET", "orders()") == "503 ServerBusy");
  CHECK(f.Run("GET", "Tables('orders')") == "503 ServerBusy");
  CHECK(f.Run("GET", "Tables") == "500 OperationTimedOut");
  CHECK(f.reads() == before);
  CHECK(f.Admin("DELETE", "/-/faults").status == 200);
  CHECK(f.Run("GET", "orders(PartitionKey='p',RowKey='r')") == "200");
  CHECK(f.reads() == before + 1);
}

TEST_CASE("throttling: off lets everything through and the report still shows the rate",
          "[throttle][service]") {
  ThrottleConfig off = Fixture::Small();
  off.enabled = false;
  Fixture f(off);
  CHECK(f.Run("POST", "Tables", R"({"TableName":"orders"})") == "201");
  for (int i = 0; i < 30; ++i) CHECK(f.Insert("p", "r" + std::to_string(i)) == "201");
  const std::string report = f.Admin("GET", "/-/partitions?format=json").body;
  CHECK(report ==
        R"({"target":5,"partitions":[{"account":"devstoreaccount1","table":"orders",)"
        R"("partition":"p","rate":30.0,"peak":30,"total":30,"throttled":0,"offline":false}]})"
        "\n");
}

TEST_CASE("faults: rules fire on schedule and in scope, and are changed at runtime",
          "[throttle][service]") {
  ThrottleConfig throttle;
  throttle.fault_rules.push_back(
      R"({"fault":"OperationTimedOut","every":2,"operation":"InsertEntity","partition":"p"})");
  Fixture f(throttle);
  CHECK(f.Run("POST", "Tables", R"({"TableName":"orders"})") == "201");
  CHECK(f.Insert("p", "1") == "201");
  CHECK(f.Insert("p", "2") == "500 OperationTimedOut");
  CHECK(f.Insert("q", "2") == "201");  // another partition: out of scope
  CHECK(f.Insert("p", "3") == "201");
  CHECK(f.Insert("p", "4") == "500 OperationTimedOut");
  CHECK(f.Run("GET", "orders(PartitionKey='p',RowKey='2')") == "404 ResourceNotFound");

  Response added = f.Admin("POST", "/-/faults", R"({"fault":"DropConnection","table":"ORDERS"})");
  CHECK(added.status == 201);
  CHECK(added.body == R"([{"id":2,"fault":"DropConnection","probability":1.0,"table":"ORDERS",)"
                      R"("matched":0,"fired":0}])"
                      "\n");
  CHECK(f.Insert("q", "3") == "503 ServerBusy");
  CHECK(f.exchange().drop_connection);
  CHECK(f.Admin("DELETE", "/-/faults/2").status == 200);
  CHECK(f.Admin("DELETE", "/-/faults/2").status == 404);
  CHECK(f.Insert("q", "3") == "201");
  CHECK(!f.exchange().drop_connection);

  CHECK(f.Admin("POST", "/-/faults", R"({"fault":"Delay","delay_ms":250})").status == 201);
  CHECK(f.Run("GET", "orders(PartitionKey='q',RowKey='3')") == "200");
  CHECK(f.exchange().fault_delay == std::chrono::milliseconds(250));
  CHECK(f.Admin("DELETE", "/-/faults").body == "[]\n");
  CHECK(f.Admin("GET", "/-/faults").body.find(R"("fault":"OperationTimedOut")") ==
        std::string::npos);

  Response bad = f.Admin("POST", "/-/faults", R"({"fault":"Delay"})");
  CHECK(bad.status == 400);
  CHECK(bad.body ==
        R"({"error":"fault rule: \"delay_ms\" (> 0) goes with the Delay fault, and only there"})"
        "\n");
}

TEST_CASE("faults: a rule's time window and count bound when it fires", "[throttle][service]") {
  ThrottleConfig throttle;
  throttle.fault_rules.push_back(
      R"({"fault":"ServerBusy","after_ms":1000,"for_ms":1000,"count":2})");
  Fixture f(throttle);
  CHECK(f.Run("GET", "Tables") == "200");
  f.clock().Advance(1000 * kMs);
  CHECK(f.Run("GET", "Tables") == "503 ServerBusy");
  CHECK(f.Run("GET", "Tables") == "503 ServerBusy");
  CHECK(f.Run("GET", "Tables") == "200");  // count reached
  f.clock().Advance(1000 * kMs);
  CHECK(f.Run("GET", "Tables") == "200");
  CHECK(f.Admin("GET", "/-/faults").body ==
        R"([{"id":1,"fault":"ServerBusy","probability":1.0,"after_ms":1000,"for_ms":1000,)"
        R"("count":2,"matched":2,"fired":2}])"
        "\n");
}

}  // namespace malachite::server
