// The explorer under /-/explorer (admin_endpoints.cc dispatches here, behind the admin
// surface's access rule):
//   GET /-/explorer               302 to /-/explorer/
//   GET /-/explorer/              the page (index.html); GET /-/explorer/<file> its other files,
//                                 embedded in the executable (explorer_assets.h)
//   GET /-/explorer/api/server    {"version", "accounts": [...], "throttling", "partition_target",
//                                 "account_target"}: what the page needs to start
//   any /-/explorer/table/<account>/<Table API path>
//                                 a Table API call made on the user's behalf: rewritten to
//                                 /<account>/<path> for the Table pipeline (the session runs it);
//                                 403 without x-ms-version or with another site's Origin (a page
//                                 elsewhere must not make the user's browser call it)
#pragma once

#include <string_view>
#include <vector>

#include "server/http/message.h"
#include "server/insight/insight.h"
#include "server/traffic/traffic_control.h"

namespace malachite::server {

// What HandleExplorerRequest did.
enum class ExplorerAnswer {
  kAnswered,  // the response is complete
  kTableApi,  // request.target now names a Table API resource of a configured account: run it
};

struct ExplorerContext {
  const Insight& insight;         // the configured accounts
  const TrafficControl& traffic;  // the throttle's targets
  // The account whose credentials admitted the request (AdminAccess); empty when it needed none
  // (a loopback client). Table API calls then reach that account only.
  std::string_view credential_account = {};
};

// True for "/-/explorer" and every path under "/-/explorer/".
bool IsExplorerPath(std::string_view path);

// Answers an explorer request, or rewrites a Table API call (see above; an unknown account
// answers 404). Unknown files answer 404, other methods than GET on the page 405.
// REQUIRES: IsExplorerPath(path of request.target).
ExplorerAnswer HandleExplorerRequest(Request& request, const ExplorerContext& context,
                                     Response& response);

}  // namespace malachite::server
