// The throttling endpoints under /-/ (admin_endpoints.cc dispatches here; no account, no auth):
//   GET    /-/metrics        Prometheus text format 0.0.4: requests and latency by operation and
//                            status, entities written and scanned, throttled requests, injected
//                            faults, the limits in force and the hottest partitions' rates
//   GET    /-/partitions     the hot-partition report (text; ?format=json; ?top=N, default 20):
//                            rate vs target per partition, for the partition stress test
//   GET    /-/faults         the fault rules as a JSON array (fault_injector.h has the format)
//   POST   /-/faults         adds the rule (or array of rules) in the JSON body: 201 + the rules
//                            as stored (with ids); 400 {"error": "..."} on a bad rule
//   DELETE /-/faults         removes every rule; DELETE /-/faults/<id> removes one (404 if none)
#pragma once

#include <string>
#include <string_view>

#include "server/http/message.h"
#include "server/traffic/traffic_control.h"

namespace malachite::server {

// One partition of the hot-partition report as JSON: {"account", "table", "partition", "rate"
// (entities/s over the last second), "peak", "total", "throttled", "offline"}.
void AppendPartitionReportJson(std::string& out, const PartitionReport& report);

// True when `path` (without the query) is one of the paths above.
bool IsTrafficPath(std::string_view path);

// Answers a request for one of those paths (other methods: 405 with Allow). REQUIRES:
// IsTrafficPath(path of request.target).
void HandleTrafficRequest(TrafficControl& traffic, const Request& request, Response& response);

}  // namespace malachite::server
