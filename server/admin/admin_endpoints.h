// Emulator-only endpoints under /-/ (outside the Table API: no account, no auth, no x-ms-version):
// liveness and readiness for orchestrators and compose health checks. The session answers them
// before the Table pipeline. One dispatcher for every /-/ path: /-/metrics, /-/partitions and
// /-/faults are answered by traffic/traffic_endpoints.h through it.
#pragma once

#include <string_view>

#include "server/admin/data_endpoints.h"
#include "server/http/message.h"
#include "server/traffic/traffic_control.h"

namespace malachite::server {

// What the admin endpoints may report about the running server.
struct AdminContext {
  bool ready = false;  // the store is open and the server is not shutting down
  // Throttling, fault rules and metrics: /-/metrics, /-/partitions and /-/faults
  // (traffic_endpoints.h). Null: those paths answer 404.
  TrafficControl* traffic = nullptr;
  // Reset and backup: /-/reset, /-/backup (data_endpoints.h). Null: those paths answer 404.
  const DataEndpoints* data = nullptr;
};

// True when `target` (the request-target as sent) names an admin endpoint: its path is "/-" or
// starts with "/-/". Azure account names are 3-24 lowercase letters and digits, so no Table
// API path can start that way.
bool IsAdminTarget(std::string_view target);

// Answers an admin request into `response` (status, headers, body):
//   GET /-/healthy  200 "ok" while the process serves (liveness)
//   GET /-/ready    200 "ready" when context.ready, else 503 "not ready" (readiness)
//   /-/metrics, /-/partitions, /-/faults[/<id>]  see traffic_endpoints.h
//   POST /-/reset, /-/backup  see data_endpoints.h: answered through *job, which the caller
//                        runs off the I/O threads (without `job` they answer 503)
//   other /-/ paths      404; other methods 405 with Allow.
// Bodies are text/plain. REQUIRES: IsAdminTarget(request.target).
void HandleAdminRequest(const Request& request, const AdminContext& context, Response& response,
                        AdminJob* job = nullptr);

}  // namespace malachite::server
