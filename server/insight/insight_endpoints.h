// The insight endpoints under /-/ (admin_endpoints.cc dispatches here, behind the admin surface's
// access rule):
//   GET    /-/advisor            the design advisor's findings as JSON (advisor.h);
//                                ?severity=warning keeps only warnings,
//                                ?category=differs-from-azurite (or design) one category
//   DELETE /-/advisor            forgets what the advisor has seen
//   GET    /-/bill               the bill as JSON (bill.h): transactions by account, table and
//                                operation, capacity (measured on demand, cached 10 s), the
//                                estimated monthly cost
//   DELETE /-/bill               zeroes the billed transactions (a new window starts)
//   GET    /-/bill/prices        the price table; PUT replaces members of it (JSON object)
//   GET    /-/capacity?account=A[&table=T][&max_age=S]
//                                entity counts and billable sizes of A's tables, measured now
//                                (or at most S seconds ago), with what the measurement cost
//   GET    /-/traffic[?since=MS] the traffic history (history.h) after MS (Unix milliseconds)
// Errors are {"error": "..."} with 400 (bad parameter or body), 404 (unknown account or table)
// or 405 (with Allow).
#pragma once

#include <string>
#include <string_view>

#include "server/http/message.h"
#include "server/insight/insight.h"

namespace malachite::server {

// True when `path` (without the query) is one of the paths above.
bool IsInsightPath(std::string_view path);

// Answers a request for one of those paths. REQUIRES: IsInsightPath(path of request.target).
void HandleInsightRequest(Insight& insight, const Request& request, Response& response);

// The bill's Prometheus series, appended to the /-/metrics body (capacity from a measurement at
// most a minute old, or a new one bounded to 250 ms).
void AppendInsightMetrics(Insight& insight, std::string& out);

}  // namespace malachite::server
