#include "server/ops/query_log.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <mutex>
#include <unordered_map>

namespace malachite::server {
namespace {

constexpr std::chrono::seconds kWarnInterval{10};

// True when no table-scan warning for `key` was logged in the last kWarnInterval.
bool ShouldWarn(const std::string& key) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::chrono::steady_clock::time_point> last_warned;
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = last_warned.try_emplace(key, now);
  if (inserted) return true;
  if (now - it->second < kWarnInterval) return false;
  it->second = now;
  return true;
}

}  // namespace

std::string ExplainQuery(const odata::ScanPlan& plan, const QueryStats& stats) {
  return plan.Dump() + " scanned=" + std::to_string(stats.scanned) +
         " returned=" + std::to_string(stats.returned);
}

void LogQuery(std::string_view account, std::string_view table, const odata::ScanPlan& plan,
              const QueryStats& stats) {
  spdlog::debug("query {}/{}: plan={} service={} scanned={} returned={}", account, table,
                odata::PlanKindName(plan.kind()), odata::ServiceClassName(plan.service_class()),
                stats.scanned, stats.returned);
  if (plan.service_class() != odata::ServiceClass::kTableScan) return;
  if (!spdlog::should_log(spdlog::level::warn)) return;
  if (!ShouldWarn(std::string(account) + "/" + std::string(table))) return;
  // Azure: design guide "Design for querying" — a query without a usable PartitionKey condition
  // scans every partition of the table in the real service, whatever Malachite's own plan.
  spdlog::warn(
      "query {}/{} is a full table scan in Azure ({}; scanned={} returned={}); at most one such "
      "warning per table every {} s",
      account, table, plan.Dump(), stats.scanned, stats.returned, kWarnInterval.count());
}

}  // namespace malachite::server
