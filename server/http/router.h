// Routing (spec §1): which operation a request asks for, on which account/table/entity.
#pragma once

#include "common/error.h"
#include "server/http/host_style.h"
#include "server/http/message.h"
#include "server/http/route.h"

namespace malachite::server {

// Routes `request` (spec §1.2–1.4, including X-HTTP-Method rules). Errors: kInvalidUri,
// kUnsupportedHttpVerb, kXMethodIncorrectCount/kXMethodNotUsingPost/kXMethodIncorrectValue,
// kInvalidQueryParameterValue (unknown comp), kOutOfRangeInput/kInvalidResourceName (table name).
Result<Route> RouteRequest(const Request& request);

// As above; with `routing` enabled, a host naming an account (HostStyleAccount: the authority of
// an absolute-form target, else the Host header; not when the path starts "/<known account>/")
// makes the request host-style (spec §1.1): the account is the host's and the whole path is the
// resource.
Result<Route> RouteRequest(const Request& request, const HostRouting& routing);

// The same into `out`, whose fields are all overwritten (its strings keep their capacity: a
// caller routing many requests with one Route, such as the operations of a $batch, routes
// without allocating once warm). On an error `out` holds a partial route. `valid_table`, when
// not empty, is a table name that already passed the name rules (a $batch's first operation's):
// a URL naming exactly it skips their check, any other name is checked as always.
Result<void> RouteRequest(const Request& request, const HostRouting& routing, Route& out,
                          std::string_view valid_table = {});

}  // namespace malachite::server
