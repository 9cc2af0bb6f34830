// Dispatch decodes and reads nothing (ARCHITECTURE.md, "The order of a request"): for every
// operation that reads, the store is asked for a snapshot only when the Outcome's `read` runs,
// which the pipeline does once the throttle admitted the request.
#include "server/pipeline/dispatch.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "server/http/router.h"
#include "tests/unit/server/handler_harness.h"
#include "tests/unit/server/service_harness.h"

namespace malachite::server {
namespace {

struct Call {
  std::string method;
  std::string target;  // after "/devstoreaccount1/"
  std::vector<Header> headers = {};
  std::string body = {};
};

const std::string kLoneGet =
    "--batch_b\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
    "GET http://127.0.0.1:10002/devstoreaccount1/orders(PartitionKey='p',RowKey='r') "
    "HTTP/1.1\r\nAccept: application/json;odata=nometadata\r\n\r\n--batch_b--\r\n";

TEST_CASE("dispatch: a handler reads nothing, its Outcome's read does", "[server][pipeline]") {
  testing::Harness h;
  REQUIRE(h.Run("POST", "Tables", R"({"TableName":"orders"})").status == 201);
  REQUIRE(h.Run("POST", "orders", R"({"PartitionKey":"p","RowKey":"r"})").status == 201);
  testing::ReadCountingStore store(h.store());
  const std::vector<Call> reads = {
      {"GET", "orders(PartitionKey='p',RowKey='r')"},
      {"GET", "orders()?$filter=PartitionKey%20eq%20'p'"},
      {"GET", "Tables"},
      {"GET", "Tables('orders')"},
      {"GET", "orders?comp=acl"},
      {"GET", "?restype=service&comp=properties"},
      {"OPTIONS",
       "orders",
       {{"Origin", "http://a.example"}, {"Access-Control-Request-Method", "GET"}}},
      {"POST", "$batch", {{"Content-Type", "multipart/mixed; boundary=batch_b"}}, kLoneGet},
      {"POST", "orders/extra", {}, R"({"PartitionKey":"p","RowKey":"s"})"},
  };
  for (const Call& call : reads) {
    INFO(call.method + " " + call.target);
    Request request;
    request.method = call.method;
    request.target = "/devstoreaccount1/" + call.target;
    request.headers = call.headers;
    request.body = call.body;
    auto route = RouteRequest(request);
    REQUIRE(route);
    RequestContext ctx{request,   *route, MetadataLevel::kMinimal, std::string(testing::kBaseUrl),
                       h.clock(), store};
    const std::uint64_t before = store.reads();
    auto outcome = Dispatch(ctx);
    REQUIRE(outcome);
    CHECK(store.reads() == before);
    REQUIRE(outcome->read);
    outcome->read(ctx, *outcome);
    CHECK(store.reads() == before + 1);
  }
}

}  // namespace
}  // namespace malachite::server
