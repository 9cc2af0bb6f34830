// Routing (spec §1): which operation a request asks for, on which account/table/entity.
#pragma once

#include "common/error.h"
#include "server/http/message.h"
#include "server/http/route.h"

namespace malachite::server {

// Routes `request` (spec §1.2–1.4, including X-HTTP-Method rules). Errors: kInvalidUri,
// kUnsupportedHttpVerb, kXMethodIncorrectCount/kXMethodNotUsingPost/kXMethodIncorrectValue,
// kInvalidQueryParameterValue (unknown comp), kOutOfRangeInput/kInvalidResourceName (table name).
Result<Route> RouteRequest(const Request& request);

}  // namespace malachite::server
