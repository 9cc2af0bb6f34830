// The contract between the request pipeline (service.cc) and the operation handlers: a handler is
// an ordinary function from a routed, authenticated request to an Outcome.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/clock.h"
#include "common/error.h"
#include "server/http_message.h"
#include "server/route.h"
#include "server/sas.h"
#include "storage/store.h"

namespace malachite::server {

// Azure: spec §5.1 — the JSON metadata level negotiated from $format/Accept (spec §2.3).
enum class MetadataLevel { kNone, kMinimal, kFull };

// What one query read and returned. Azure: spec §12.1 — the service's entity rate counts the
// entities a query scans, not those it returns, so later throttling charges `scanned`.
struct QueryStats {
  std::uint64_t scanned = 0;   // entities (or tables) read from storage, matching or not
  std::uint64_t returned = 0;  // entities (or tables) in the response
};

// Azure: spec §12.1 — for the throttle, the one partition a request works in when its route does
// not name it (Insert Entity's body, a $batch changeset, a query whose plan stays inside one
// PartitionKey), and the entities it counts when admitted (a $batch of N: N). A query's scan is
// charged afterwards from QueryStats::scanned.
struct PartitionCharge {
  std::string partition_key;
  std::uint64_t entities = 1;
  std::string table = {};  // when the route has none ($batch): the operations' table
};

struct RequestContext {
  const Request& request;
  const Route& route;
  MetadataLevel metadata = MetadataLevel::kMinimal;
  std::string base_url;  // "http://host:port/<account>", for odata.metadata/odata.id/Location
  const Clock& clock;
  storage::Store& store;
  // x-ms-request-id of the response, for error messages rendered inside a body ($batch parts,
  // spec §7.4). Empty in callers that do not know it.
  std::string_view request_id = {};
  // Query settings from ServerConfig: x-malachite-query-plan on query responses (--explain), and
  // the wall time one query page may scan (--query-budget-ms, spec §6.5).
  bool explain = false;
  std::chrono::milliseconds query_budget{5000};
  // Set for a request authorized by a shared access signature (spec §10.7–10.8): entity
  // handlers check keys against it (AuthorizeSasEntity) and Query Entities scans only its key
  // range. Null for Shared Key requests. Lives as long as the request.
  const SasGrant* sas = nullptr;
};

// What a handler produces. Reads are answered at once in `response`. A write sets `write`: the
// pipeline submits it to the store's group-commit writer and, once it is durable (or failed),
// calls `finish` back on an I/O thread to complete `response` (an error it returns is rendered
// as the Azure error). A handler failing before any write returns an Error instead.
struct Outcome {
  Response response;
  storage::WriteFn write;
  std::function<Result<void>(Response&, Result<void> write_result)> finish;
  // Set by the query handlers (Query Entities, Query Tables, Get Entity).
  std::optional<QueryStats> query_stats;
  // Set by the entity write handlers, $batch and Query Entities (see PartitionCharge). The
  // pipeline admits the request (or answers 503 ServerBusy) before `write` is submitted.
  std::optional<PartitionCharge> partition_charge;
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
