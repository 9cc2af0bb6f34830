// Entity group transactions: POST /<account>/$batch (spec §7).
#pragma once

#include "server/ops/handler.h"

namespace malachite::server {

// Azure: spec §7 — decodes the multipart body (multipart.h), routes and validates every
// operation exactly as its single-request form (entity_write.h), checks the batch rules (one
// table, one PartitionKey, one operation per entity, at most 100 operations, a GET only alone)
// and applies all operations in ONE WriteFn: the writer's nested transaction makes the batch
// all-or-nothing, also when other requests commit in the same group.
//
// Answers 202 with a batchresponse_/changesetresponse_ body (batch_response.h): one part per
// operation on success; on any operation failure (validation or execution) exactly one part with
// that operation's status and error, message prefixed "<index>:" (spec §7.4; single-operation
// changesets drop the prefix for ResourceNotFound, EntityAlreadyExists and
// UpdateConditionNotSatisfied, spec §15 item 5). A lone GET is answered in a part of its own, by
// the Outcome's `read`. Top-level errors (not 202): kRequestBodyTooLarge (body > 4 MiB),
// kInvalidInput (malformed multipart, missing boundary, several changesets), and a failed commit of
// the group.
Result<Outcome> HandleBatch(const RequestContext& ctx);

}  // namespace malachite::server
