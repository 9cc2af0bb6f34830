// Planning a $batch changeset: each embedded operation routed, negotiated, authorized and
// decoded as its single request would be, with the changeset rules (spec §7.1) checked on the
// way, before anything is written. What planning and the lone GET of a batch share is here too.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "server/http/metadata.h"
#include "server/http/router.h"
#include "server/ops/entity_write.h"
#include "server/ops/handler.h"
#include "server/wire/multipart.h"

namespace malachite::server {

// One decoded operation of the changeset, ready to apply.
struct PlannedOperation {
  EntityWrite write;
  std::optional<std::string> content_id;
  MetadataLevel level = MetadataLevel::kMinimal;
};

// Where an operation failed: its index in the changeset and the error.
struct OperationFailure {
  std::size_t index = 0;
  Error error;
};

// The operation that failed planning, with its part's Content-ID (echoed in the answer).
struct PlanFailure {
  OperationFailure failure;
  std::optional<std::string> content_id;
};

// The version the batch request names (x-ms-version), which its operations are negotiated under.
std::string_view BatchVersion(const Request& request);

// A part's request is routed as the batch was: host style when the batch was (spec §1.1).
HostRouting PartRouting(const RequestContext& ctx);

// Azure: spec §10.9 — under a bearer token each operation needs its own RBAC actions.
Result<void> AuthorizePart(const RequestContext& ctx, Operation op);

// Plans every operation of the changeset into `planned` (appended in order) and sets `table` to
// the first operation's table name. Azure: spec §7.1 — one table, one PartitionKey, each
// (PartitionKey, RowKey) once, and only entity writes. Stops at the first operation that fails
// and returns it; `planned` then holds a partial plan to be dropped.
std::optional<PlanFailure> PlanAll(const RequestContext& ctx,
                                   std::vector<BatchOperation>& operations,
                                   std::vector<PlannedOperation>& planned, std::string& table);

}  // namespace malachite::server
