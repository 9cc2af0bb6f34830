// Emulator-only endpoints under /-/ (outside the Table API: no account, no x-ms-version):
// liveness and readiness for orchestrators and compose health checks, the traffic endpoints
// (metrics, hot partitions, fault rules), the data endpoints (reset, backup), the insight
// endpoints (advisor, bill, capacity, traffic history) and the explorer. The session answers
// them before the Table pipeline: one dispatcher for every /-/ path, behind one access rule.
#pragma once

#include <string_view>

#include "server/admin/admin_access.h"
#include "server/admin/data_endpoints.h"
#include "server/http/message.h"
#include "server/insight/insight.h"
#include "server/traffic/traffic_control.h"
#include "storage/store.h"

namespace malachite::server {

// What the admin endpoints may report about the running server.
struct AdminContext {
  bool ready = false;  // the store is open and the server is not shutting down
  // Throttling, fault rules and metrics: /-/metrics, /-/partitions and /-/faults
  // (traffic_endpoints.h). Null: those paths answer 404.
  TrafficControl* traffic = nullptr;
  // Reset and backup: /-/reset, /-/backup (data_endpoints.h). Null: those paths answer 404.
  const DataEndpoints* data = nullptr;
  // The advisor, the bill, capacity and the traffic history (insight_endpoints.h), and with
  // `traffic` the explorer (explorer_endpoints.h). Null: those paths answer 404.
  Insight* insight = nullptr;
  // Who may use the endpoints other than the health probes (admin_access.h). Null: loopback
  // (and in-process) clients only.
  const AdminAccess* access = nullptr;
  // The writer's counters, appended to /-/metrics (writes, group commits, inline commits,
  // background syncs). Null: not reported.
  const storage::Store* store = nullptr;
};

// The store's writer counters in Prometheus' text format, as /-/metrics ends with them:
// malachite_store_writes_total, _commits_total, _inline_commits_total, _syncs_total,
// _map_growths_total and _compactions_total (counters), and malachite_store_map_size_bytes,
// _page_size_bytes, _pages_live and _pages_free (gauges), each with its HELP and TYPE lines.
void AppendStoreMetrics(const storage::StoreStats& stats, std::string& out);

// The admin access rule, applied by HandleAdminRequest before any /-/ path is dispatched:
// true when `request` may use `path`; false with the 401/403 answer in `response`. Every
// endpoint under /-/ (traffic, data, insight, the explorer, and any added later) is behind it;
// only the health probes are not. `credential_account` (when given) names the account whose
// credentials admitted the request; empty when it needed none.
bool AdmitAdminRequest(const Request& request, std::string_view path, const AdminContext& context,
                       Response& response, std::string* credential_account = nullptr);

// What HandleAdminRequest did.
enum class AdminAnswer {
  kAnswered,  // the response is complete (or *job will complete it)
  // An explorer call of the Table API: request.target was rewritten to a Table API path of a
  // configured account; the caller runs it through the Table pipeline as the account owner
  // (Exchange::explorer).
  kTableApi,
};

// True when `target` (the request-target as sent) names an admin endpoint: its path is "/-" or
// starts with "/-/". Azure account names are 3-24 lowercase letters and digits, so no Table
// API path can start that way.
bool IsAdminTarget(std::string_view target);

// Answers an admin request into `response` (status, headers, body):
//   GET /-/healthy  200 "ok" while the process serves (liveness)
//   GET /-/ready    200 "ready" when context.ready, else 503 "not ready" (readiness)
//   /-/metrics (with the bill's series), /-/partitions, /-/faults[/<id>]  traffic_endpoints.h
//   POST /-/reset, /-/backup  see data_endpoints.h: answered through *job, which the caller
//                        runs off the I/O threads (without `job` they answer 503)
//   /-/advisor, /-/bill, /-/bill/prices, /-/capacity, /-/traffic          insight_endpoints.h
//   /-/explorer[/...]                                                     explorer_endpoints.h
//   other /-/ paths      404; other methods 405 with Allow.
//   refused by the access rule (AdmitAdminRequest): 401 or 403, before any of the above.
// Probe bodies are text/plain. REQUIRES: IsAdminTarget(request.target).
AdminAnswer HandleAdminRequest(Request& request, const AdminContext& context, Response& response,
                               AdminJob* job = nullptr);

}  // namespace malachite::server
