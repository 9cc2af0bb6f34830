#include "server/admin/admin_endpoints.h"

#include <catch2/catch.hpp>
#include <tuple>

#include "server/pipeline/service.h"
#include "tests/unit/server/service_harness.h"

namespace malachite::server {
namespace {

// "<status> <body without the newline> [Allow]" of the answer to `method target`.
std::string Answer(std::string method, std::string target, bool ready) {
  Request request;
  request.method = std::move(method);
  request.target = std::move(target);
  Response response;
  HandleAdminRequest(request, AdminContext{ready}, response);
  std::string out =
      std::to_string(response.status) + " " + response.body.substr(0, response.body.size() - 1);
  if (auto allow = response.Find("Allow")) out += " [" + std::string(*allow) + "]";
  return out;
}

}  // namespace

TEST_CASE("admin_endpoints: only /- paths are admin paths, never an account's", "[admin]") {
  CHECK(IsAdminTarget("/-/healthy"));
  CHECK(IsAdminTarget("/-/ready?x=1"));
  CHECK(IsAdminTarget("/-"));
  CHECK_FALSE(IsAdminTarget("/devstoreaccount1/Tables"));
  CHECK_FALSE(IsAdminTarget("/-x/healthy"));
  CHECK_FALSE(IsAdminTarget("/Tables?x=/-/ready"));
}

TEST_CASE("admin_endpoints: healthy is always 200, ready is 503 until the server is ready",
          "[admin]") {
  CHECK(Answer("GET", "/-/healthy", false) == "200 ok");
  CHECK(Answer("GET", "/-/ready", true) == "200 ready");
  CHECK(Answer("GET", "/-/ready?probe=1", true) == "200 ready");
  CHECK(Answer("GET", "/-/ready", false) == "503 not ready");
  CHECK(Answer("POST", "/-/ready", true) == "405 method not allowed [GET]");
  CHECK(Answer("GET", "/-/nothing", true) == "404 unknown endpoint; try /-/healthy or /-/ready");
}

TEST_CASE("admin_endpoints: the store's counters, map size and pages render as Prometheus series",
          "[admin]") {
  storage::StoreStats stats;
  stats.writes = 20002;
  stats.commits = 4167;
  stats.inline_commits = 4100;
  stats.syncs = 7;
  stats.map_size_bytes = 134217728;
  stats.map_growths = 2;
  stats.page_size_bytes = 4096;
  stats.pages_live = 300;
  stats.pages_free = 45;
  std::string out = "before\n";
  AppendStoreMetrics(stats, out);
  CHECK(out.rfind("before\n", 0) == 0);
  for (const auto& [name, value, type] :
       {std::tuple{"malachite_store_writes_total", "20002", "counter"},
        std::tuple{"malachite_store_commits_total", "4167", "counter"},
        std::tuple{"malachite_store_inline_commits_total", "4100", "counter"},
        std::tuple{"malachite_store_syncs_total", "7", "counter"},
        std::tuple{"malachite_store_map_size_bytes", "134217728", "gauge"},
        std::tuple{"malachite_store_map_growths_total", "2", "counter"},
        std::tuple{"malachite_store_page_size_bytes", "4096", "gauge"},
        std::tuple{"malachite_store_pages_live", "300", "gauge"},
        std::tuple{"malachite_store_pages_free", "45", "gauge"}}) {
    INFO(name);
    CHECK(out.find(std::string("\n# TYPE ") + name + " " + type + "\n") != std::string::npos);
    CHECK(out.find(std::string("\n# HELP ") + name + " ") != std::string::npos);
    CHECK(out.find(std::string("\n") + name + " " + value + "\n") != std::string::npos);
  }
  CHECK(out.back() == '\n');
}

TEST_CASE("admin_endpoints: insight paths are dispatched, /-/metrics carries the bill's series",
          "[admin]") {
  testing::ServiceHarness host(DateTime{638000000000000000}, "malachite-admin");
  Response response;
  auto answer = [&](std::string method, std::string target, std::string body = {}) {
    Request request;
    request.method = std::move(method);
    request.target = std::move(target);
    request.body = std::move(body);
    response = Response{};
    const AdminContext context{true, &host.service().traffic(), nullptr, &host.service().insight()};
    HandleAdminRequest(request, context, response);
    return std::to_string(response.status) + " " +
           std::string(response.Find("Content-Type").value_or(""));
  };
  CHECK(answer("PUT", "/-/bill/prices", R"({"currency":"EUR"})") == "200 application/json");
  CHECK(answer("GET", "/-/advisor") == "200 application/json");
  CHECK(answer("GET", "/-/metrics") == "200 text/plain; version=0.0.4; charset=utf-8");
  CHECK(response.body.find("# TYPE malachite_billable_transactions_total counter\n") !=
        std::string::npos);
  CHECK(response.body.find("malachite_estimated_monthly_cost{account=\"devstoreaccount1\","
                           "currency=\"EUR\"} 0\n") != std::string::npos);
}

}  // namespace malachite::server
