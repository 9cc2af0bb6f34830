// The contract between the request pipeline and the operation handlers: a handler is an ordinary
// function from a routed, authenticated request (RequestContext) to an Outcome: what the request
// will do, decoded and validated, with nothing of it done yet (ARCHITECTURE.md, "The order of a
// request"). pipeline/dispatch.h picks the handler for an Operation.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/clock.h"
#include "common/error.h"
#include "common/rbac.h"
#include "server/auth/sas.h"
#include "server/http/message.h"
#include "server/http/metadata.h"
#include "server/http/route.h"
#include "server/traffic/request_charge.h"
#include "storage/store.h"

namespace malachite::server {

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
  // Set for a request authorized by a bearer token (spec §10.9): what its principal's roles
  // allow; $batch checks each of its operations against it (AuthorizeBearerOperation).
  std::optional<RbacActions> rbac = std::nullopt;
};

struct Outcome;

// A read a handler prepared: called at most once, synchronously, with the context the handler
// had, to read the store and fill `outcome` (its response, its query_stats). Errors: the
// operation's read errors (kTableNotFound, kResourceNotFound, storage errors, ...).
using ReadFn = std::function<Result<void>(const RequestContext& ctx, Outcome& outcome)>;

// What a handler produces. A handler decodes and validates the request and reads nothing and
// writes nothing: the pipeline first asks the throttle, and a refused request does neither. A
// read sets `read`: the pipeline runs it once the request is admitted. A write sets `write`: the
// pipeline submits it to the store's group-commit writer and, once it is durable (or failed),
// calls `finish` back on an I/O thread to complete `response` (an error it returns is rendered
// as the Azure error). A request answered from its decoding alone (Get Service Stats, a $batch
// the batch rules refused) sets neither. A handler failing before any of this returns an Error.
struct Outcome {
  Response response;
  ReadFn read;
  storage::WriteFn write;
  std::function<Result<void>(Response&, Result<void> write_result)> finish;
  // Set by the reads of the query handlers (Query Entities, Query Tables, Get Entity).
  std::optional<QueryStats> query_stats;
  // Set by the entity write handlers, $batch and Query Entities (see PartitionCharge): what the
  // pipeline admits the request for (or answers 503 ServerBusy) before `read` runs or `write` is
  // submitted.
  std::optional<PartitionCharge> partition_charge;
  // Set by the entity write handlers and $batch: what the request writes (design advisor).
  std::optional<WriteStats> write_stats;
  // Set by $batch when it refused the whole changeset inside its 202 (spec §7.4): the error
  // part's Error (design advisor).
  std::optional<Error> refusal;
};

// ---- Small pieces shared by the handler files ----

// The Outcome of a request whose whole work is `read` (one admitted on its route alone: Get
// Entity, Get Table, the settings reads).
Outcome ReadOnly(ReadFn read);

// Azure: spec §4.3, §4.5 — what the `Prefer` header asks of Create Table / Insert Entity.
enum class PreferReturn { kNone, kContent, kNoContent };
PreferReturn ParsePrefer(const Request& request);
// "return-content" / "return-no-content" for Preference-Applied; empty for kNone.
std::string_view PreferenceAppliedValue(PreferReturn prefer);

// Azure: spec §6.5 — the page size from `$top`: limits::kMaxPageSize when absent, else an
// integer 0..1000 (0: an empty page that ends the query). Errors: kInvalidInput (negative,
// > 1000, not a number).
Result<std::size_t> ParseTop(const QueryParams& query);

}  // namespace malachite::server
