// The insight room's object (insight.h) over a real Service: what it keeps about an account and
// forgets once the account is deleted.
#include "server/insight/insight.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <string>

#include "server/pipeline/service.h"
#include "tests/unit/server/service_harness.h"

namespace malachite::server {

TEST_CASE(
    "insight: a deleted account, once forgotten, is named by no answer (bill, metrics, advisor, "
    "traffic) and a new account of its name is measured afresh",
    "[insight]") {
  testing::ServiceHarness host(DateTime{638000000000000000}, "malachite-insight");
  Service& service = host.service();
  Insight& insight = service.insight();
  auto add = [&] {
    auto account =
        AccountDirectory::MakeRuntime("gone", std::string(kDevAccountKey), host.clock().Now());
    REQUIRE(account);
    REQUIRE(service.accounts().Add({std::move(*account)}));
  };
  add();
  insight.Sample();  // the history's baseline
  RequestFacts facts;
  facts.op = Operation::kInsertEntity;
  facts.account = "gone";
  facts.table = "orders";
  facts.status = 204;
  facts.partition_key = "p";
  insight.Record(facts);
  REQUIRE(service.traffic().throttle().Admit(PartitionRef{"gone", "orders", "p"}, 1) ==
          ThrottleVerdict::kAdmitted);
  insight.Sample();
  const auto hour = std::chrono::seconds(3600);
  const auto budget = std::chrono::milliseconds(1000);
  auto measured = insight.Capacity("gone", std::nullopt, hour, budget);  // kept for an hour
  REQUIRE(measured);
  CHECK(measured->tables.empty());
  const auto json = [&] {
    std::string metrics;
    insight.AppendBillMetrics(metrics, hour, budget);
    return insight.BillJson(hour, budget) + metrics + insight.AdvisorJson() +
           insight.TrafficJson(DateTime{});
  };
  CHECK(json().find("gone") != std::string::npos);

  REQUIRE(service.accounts().Remove("gone"));
  insight.ForgetAccount("gone");
  service.traffic().throttle().ForgetAccount("gone");
  CHECK(json().find("gone") == std::string::npos);
  CHECK(insight.usage().size() == 0);

  // Made again, with a table: its capacity is measured, not the deleted account's answered.
  add();
  REQUIRE(host.store().Write([](storage::WriteContext& write) -> Result<void> {
    auto created = write.CreateTable("gone", "Fresh");
    if (!created) return tl::unexpected(created.error());
    return {};
  }));
  measured = insight.Capacity("gone", std::nullopt, hour, budget);
  REQUIRE(measured);
  REQUIRE(measured->tables.size() == 1);
  CHECK(measured->tables[0].table == "Fresh");
}

}  // namespace malachite::server
