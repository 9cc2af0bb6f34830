// The contract between the request pipeline (service.cc) and the operation handlers: a handler is
// an ordinary function from a routed, authenticated request to an Outcome.
#pragma once

#include <functional>
#include <string>

#include "common/clock.h"
#include "common/error.h"
#include "server/http_message.h"
#include "server/route.h"
#include "storage/store.h"

namespace malachite::server {

// Azure: spec §5.1 — the JSON metadata level negotiated from $format/Accept (spec §2.3).
enum class MetadataLevel { kNone, kMinimal, kFull };

struct RequestContext {
  const Request& request;
  const Route& route;
  MetadataLevel metadata = MetadataLevel::kMinimal;
  std::string base_url;  // "http://host:port/<account>", for odata.metadata/odata.id/Location
  const Clock& clock;
  storage::Store& store;
};

// What a handler produces. Reads are answered at once in `response`. A write sets `write`: the
// pipeline submits it to the store's group-commit writer and, once it is durable (or failed),
// calls `finish` back on an I/O thread to complete `response` (an error it returns is rendered
// as the Azure error). A handler failing before any write returns an Error instead.
struct Outcome {
  Response response;
  storage::WriteFn write;
  std::function<Result<void>(Response&, Result<void> write_result)> finish;
};

// Runs the handler for ctx.route.op (tables, entities, queries). Errors carry the Azure code.
Result<Outcome> Dispatch(const RequestContext& ctx);

}  // namespace malachite::server
