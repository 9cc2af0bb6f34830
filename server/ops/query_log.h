// What the server says about each query: one debug log line (plan kind, the service's query
// class, entities scanned and returned), a rate-limited warning for queries the real service runs
// as full table scans, and the opt-in x-malachite-query-plan header.
#pragma once

#include <string>
#include <string_view>

#include "odata/planner.h"
#include "server/ops/handler.h"

namespace malachite::server {

// The x-malachite-query-plan header name.
inline constexpr std::string_view kQueryPlanHeader = "x-malachite-query-plan";

// `<plan.Dump()> scanned=N returned=M`: visible ASCII only, a valid header value.
std::string ExplainQuery(const odata::ScanPlan& plan, const QueryStats& stats);

// Logs one line at debug level for the query on `account`/`table`, and a warning when the service
// would scan the whole table (at most one per table every 10 s, so a polling client does not
// flood the log). Thread-safe; takes a lock only on the table-scan path.
void LogQuery(std::string_view account, std::string_view table, const odata::ScanPlan& plan,
              const QueryStats& stats);

}  // namespace malachite::server
