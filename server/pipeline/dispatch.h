// Dispatch: the one entry point from the pipeline into the operation handlers (ops/).
#pragma once

#include "common/error.h"
#include "server/ops/handler.h"

namespace malachite::server {

// Runs the handler (ops/) for ctx.route.op: the request decoded and validated into an Outcome
// whose `read` or `write` the caller runs, nothing of it read or written yet. Errors carry the
// Azure code; an Operation without a handler would fail with kNotImplemented. A `finish` that
// returns an error may already have set headers on the response (e.g. Preference-Applied, spec
// §4.5); the pipeline should keep them.
Result<Outcome> Dispatch(const RequestContext& ctx);

}  // namespace malachite::server
