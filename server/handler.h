// The contract between the request pipeline (service.cc) and the operation handlers: a handler is
// an ordinary function from a routed, authenticated request to an Outcome.
#pragma once

#include <functional>
#include <string>
#include <string_view>

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
// Operations without a handler yet (ACL, service properties, $batch, ...) fail with
// kNotImplemented. A `finish` that returns an error may already have set headers on the
// response (e.g. Preference-Applied, spec §4.5); the pipeline should keep them.
Result<Outcome> Dispatch(const RequestContext& ctx);

// ---- Small pieces shared by the handler files (defined in handlers.cc) ----

// Azure: spec §2.2 — "application/json;odata=<level>;streaming=true;charset=utf-8". The view
// lives for the program.
std::string_view JsonContentType(MetadataLevel level);

// Azure: spec §4.3, §4.5 — what the `Prefer` header asks of Create Table / Insert Entity.
enum class PreferReturn { kNone, kContent, kNoContent };
PreferReturn ParsePrefer(const Request& request);
// "return-content" / "return-no-content" for Preference-Applied; empty for kNone.
std::string_view PreferenceAppliedValue(PreferReturn prefer);

// Azure: spec §6.5 — the page size from `$top`: limits::kMaxPageSize when absent, else an
// integer 1..1000. Errors: kInvalidInput (0, negative, > 1000, not a number).
Result<std::size_t> ParseTop(const QueryParams& query);

}  // namespace malachite::server
