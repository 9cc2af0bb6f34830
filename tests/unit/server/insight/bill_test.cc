// The bill: which answered requests the service bills (through the whole pipeline, with a real
// store), the entity-size formula behind capacity, the price table and the monthly estimate; and
// the explorer's Table API calls, which run as the account owner and are not billed.
#include "server/insight/bill.h"

#include <catch2/catch.hpp>

#include "common/datetime.h"
#include "common/entity_size.h"
#include "server/http/router.h"
#include "server/pipeline/service.h"
#include "tests/unit/server/service_harness.h"

namespace malachite::server {
namespace {

const DateTime kStart = *ParseIso8601("2026-11-21T05:21:46Z");

class Fixture {
 public:
  // Throttling off: the fault rule below is the only refusal.
  Fixture() : host_(kStart, "malachite-bill", testing::UnthrottledConfig()) {}

  // "<status>[ <x-ms-error-code>]" of a request through the pipeline: signed unless `sign` is
  // false; an explorer call (unsigned, Exchange::explorer) with `explorer`.
  std::string Run(std::string method, std::string target, std::string body = {}, bool sign = true,
                  bool explorer = false) {
    exchange_.Reset();
    Request& request = exchange_.request;
    testing::MakeJsonRequest(request, std::move(method), std::move(target), std::move(body),
                             host_.clock().Now(), "application/json;odata=minimalmetadata");
    auto route = RouteRequest(request);
    REQUIRE(route);
    if (sign) {
      testing::SignSharedKeyLite(request, *route);
    } else if (!explorer) {
      request.headers.push_back({"Authorization", "SharedKeyLite devstoreaccount1:bm90IGl0"});
    }
    exchange_.explorer = explorer;
    host_.Run(exchange_);
    return testing::StatusAndCode(exchange_.response);
  }

  // "<table>: <Operation>=<n> ...; ..." of the billed transactions.
  std::string Billed() {
    std::string out;
    for (const TableUsage& usage : host_.service().insight().usage().Snapshot()) {
      out += (out.empty() ? "" : "; ") + (usage.table.empty() ? "(account)" : usage.table) + ":";
      for (std::size_t i = 0; i < kOperationCount; ++i) {
        if (usage.transactions[i] == 0) continue;
        out += " " + std::string(OperationName(static_cast<Operation>(i))) + "=" +
               std::to_string(usage.transactions[i]);
      }
    }
    return out;
  }

  Service& service() { return host_.service(); }
  storage::Store& store() { return host_.store(); }
  const Response& response() const { return exchange_.response; }

 private:
  testing::ServiceHarness host_;
  Exchange exchange_;
};

}  // namespace

TEST_CASE(
    "bill: every request is a transaction, each query page one, 5xx and unauthenticated "
    "requests are not billed",
    "[bill]") {
  Fixture f;
  REQUIRE(f.Run("POST", "Tables", R"({"TableName":"bills"})") == "201");
  const std::string entity = R"({"PartitionKey":"p","RowKey":"1","Name":"abc","Qty":5})";
  REQUIRE(f.Run("POST", "bills", entity) == "201");
  REQUIRE(f.Run("POST", "bills", entity) == "409 EntityAlreadyExists");
  REQUIRE(f.Run("POST", "bills", R"({"PartitionKey":"p","RowKey":"2"})") == "201");
  REQUIRE(f.Run("GET", "bills(PartitionKey='p',RowKey='nope')") == "404 ResourceNotFound");
  // Two pages of one entity: two transactions.
  REQUIRE(f.Run("GET", "bills()?$top=1") == "200");
  const std::string next_pk(*f.response().Find("x-ms-continuation-NextPartitionKey"));
  const std::string next_rk(*f.response().Find("x-ms-continuation-NextRowKey"));
  REQUIRE(f.Run("GET", "bills()?$top=1&NextPartitionKey=" + next_pk + "&NextRowKey=" + next_rk) ==
          "200");
  // Not billed: a bad signature, and a 503 from a fault rule.
  REQUIRE(f.Run("GET", "bills()", {}, false) == "403 AuthenticationFailed");
  auto rules = FaultInjector::Parse(R"({"fault":"ServerBusy","operation":"QueryEntities"})");
  REQUIRE(rules);
  f.service().traffic().faults().Add(rules->front());
  REQUIRE(f.Run("GET", "bills()") == "503 ServerBusy");
  CHECK(f.Billed() ==
        "(account): CreateTable=1; bills: QueryEntities=2 GetEntity=1 InsertEntity=3");
}

TEST_CASE("bill: the explorer's calls run as the account owner, with the plan, and are not billed",
          "[bill]") {
  Fixture f;
  REQUIRE(f.Run("POST", "Tables", R"({"TableName":"bills"})") == "201");
  REQUIRE(f.Run("POST", "bills", R"({"PartitionKey":"p","RowKey":"1","Name":"abc"})") == "201");
  const std::string billed = f.Billed();
  REQUIRE(f.Run("GET", "bills()?$filter=Name%20eq%20'abc'", {}, false, true) == "200");
  CHECK(std::string(f.response().Find("x-malachite-query-plan").value_or("")) ==
        "plan=table-scan service=table-scan ranges=[(-inf .. +inf)] residual=(eq Name 'abc') "
        "scanned=1 returned=1");
  CHECK(f.response().Find("x-malachite-elapsed-us"));
  REQUIRE(f.Run("DELETE", "bills(PartitionKey='p',RowKey='1')", {}, false, true) ==
          "400 MissingRequiredHeader");
  CHECK(f.Billed() == billed);
  // Without the flag the same unsigned call is refused.
  CHECK(f.Run("GET", "bills()", {}, false) == "403 AuthenticationFailed");
}

TEST_CASE("bill: capacity is the sum of the service's billable entity sizes", "[bill]") {
  // Azure: 4 + 2 per key character, then per property 8 + 2 per name character + the value.
  Entity entity{"p", "1", {}, {{"Name", EdmValue::String("abc")}, {"Qty", EdmValue::Int32(5)}}};
  CHECK(BillableEntitySize(entity) == 8 + (8 + 8 + 10) + (8 + 6 + 4));
  entity.properties = {
      {"B", EdmValue::Binary("xyz")},
      {"D", EdmValue::Double(1)},
      {"G", EdmValue::Guid({})},
      {"L", EdmValue::Int64(1)},
      {"T", EdmValue::Time(kStart)},
      {"F", EdmValue::Boolean(true)},
      {"U", EdmValue::String("\xc3\xa9\xf0\x9f\x98\x80")}};  // é + a surrogate pair
  CHECK(BillableEntitySize(entity) == 8 + 7 * 10 + (3 + 4) + 8 + 16 + 8 + 8 + 1 + (2 * 3 + 4));

  Fixture f;
  REQUIRE(f.Run("POST", "Tables", R"({"TableName":"bills"})") == "201");
  REQUIRE(f.Run("POST", "bills", R"({"PartitionKey":"p","RowKey":"1","Name":"abc","Qty":5})") ==
          "201");
  REQUIRE(f.Run("POST", "bills", R"({"PartitionKey":"p","RowKey":"2"})") == "201");
  auto report = MeasureCapacity(f.store(), "devstoreaccount1", std::nullopt,
                                std::chrono::milliseconds(5000), kStart);
  REQUIRE(report);
  CHECK(report->complete);
  REQUIRE(report->tables.size() == 1);
  CHECK(report->tables[0].table == "bills");
  CHECK(report->tables[0].entities == 2);
  CHECK(report->tables[0].bytes == 52 + 8);
  CHECK(MeasureCapacity(f.store(), "devstoreaccount1", "nosuchtable",
                        std::chrono::milliseconds(5000), kStart)
            .error()
            .code == ErrorCode::kTableNotFound);
}

TEST_CASE("bill: billable by status and code, as the service's Storage Analytics counts",
          "[bill]") {
  auto billable = [](std::optional<Operation> op, int status, std::optional<ErrorCode> error) {
    RequestFacts facts;
    facts.op = op;
    facts.status = status;
    facts.error = error;
    return IsBillable(facts);
  };
  CHECK(billable(Operation::kInsertEntity, 201, std::nullopt));
  CHECK(billable(Operation::kUpdateEntity, 412, ErrorCode::kUpdateConditionNotSatisfied));
  CHECK(billable(Operation::kQueryEntities, 403, ErrorCode::kAuthorizationPermissionMismatch));
  CHECK_FALSE(billable(Operation::kQueryEntities, 403, ErrorCode::kAuthenticationFailed));
  CHECK_FALSE(billable(Operation::kQueryEntities, 403, ErrorCode::kNoAuthenticationInformation));
  CHECK_FALSE(billable(Operation::kInsertEntity, 503, ErrorCode::kServerBusy));
  CHECK_FALSE(billable(Operation::kInsertEntity, 500, ErrorCode::kOperationTimedOut));
  CHECK_FALSE(billable(std::nullopt, 400, ErrorCode::kInvalidUri));
}

TEST_CASE("bill: the monthly estimate extrapolates the window over 730 hours, at set prices",
          "[bill]") {
  BillInput bill;
  bill.accounts = {"devstoreaccount1"};
  TableUsage usage;
  usage.account = "devstoreaccount1";
  usage.table = "orders";
  usage.transactions[static_cast<std::size_t>(Operation::kInsertEntity)] = 100;
  bill.usage = {usage};
  CapacityReport capacity;
  capacity.account = "devstoreaccount1";
  capacity.tables = {{"orders", 10, 2ull << 30}};
  bill.capacity = {capacity};
  bill.prices = DefaultPrices();
  bill.window_seconds = 3600;
  const std::string json = BillJson(bill);
  // 100 an hour: 73,000 a month at 0.00036 per 10,000; 2 GiB at 0.045.
  CHECK(json.find("\"tables\":[{\"table\":\"orders\",\"transactions\":100,\"operations\":{"
                  "\"InsertEntity\":100}}],\"transactions\":100,") != std::string::npos);
  CHECK(json.find("\"estimate\":{\"transactions_per_month\":73000,\"transactions_cost\":0.002628,"
                  "\"capacity_gib\":2,\"capacity_cost\":0.09,\"total\":0.092628}") !=
        std::string::npos);
  std::string metrics;
  AppendBillMetrics(bill, metrics);
  CHECK(metrics.find("malachite_billable_transactions_total{account=\"devstoreaccount1\","
                     "table=\"orders\",operation=\"InsertEntity\"} 100\n") != std::string::npos);
  CHECK(metrics.find("malachite_capacity_bytes{account=\"devstoreaccount1\",table=\"orders\"} "
                     "2147483648\n") != std::string::npos);
  CHECK(metrics.find("malachite_estimated_monthly_cost{account=\"devstoreaccount1\","
                     "currency=\"USD\"} 0.092628\n") != std::string::npos);
}

TEST_CASE("bill: the price table takes a partial JSON object and refuses bad members", "[bill]") {
  const PriceTable base = DefaultPrices();
  auto prices = ParsePrices(R"({"currency":"EUR","per_gib_month":0.05})", base);
  REQUIRE(prices);
  CHECK(PricesJson(*prices) ==
        "{\"currency\":\"EUR\",\"per_gib_month\":0.05,\"per_10k_transactions\":0.00036,"
        "\"source\":\"" +
            base.source + "\",\"as_of\":\"2026-07\"}");
  CHECK(ParsePrices(R"({"per_gib_month":-1})", base).error().UserMessage() ==
        "\"per_gib_month\" must be a number >= 0");
  CHECK(ParsePrices(R"({"colour":"red"})", base).error().UserMessage() ==
        "unknown member \"colour\"");
  CHECK(ParsePrices("[1]", base).error().UserMessage() == "the prices must be one JSON object");
}

}  // namespace malachite::server
