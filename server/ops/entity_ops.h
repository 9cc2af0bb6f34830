// The single-entity operations (spec §4.5–4.12): Get Entity, and the writes Insert, Update,
// Merge, Insert Or Replace, Insert Or Merge, Delete. Get Entity returns a ReadFn that reads one
// snapshot. Each write decodes and validates the request at once (failing fast with an Error), then
// returns a WriteFn that looks the table up and applies the change atomically (entity_apply.h) and
// a `finish` that renders the response once it is durable.
#pragma once

#include "server/ops/handler.h"

namespace malachite::server {

// Azure: spec §4.12 — 200 + ETag + the single entity (odata.metadata "#<t>/@Element"), $select
// honoured; a $filter the entity does not satisfy makes it absent, and so does a SAS key range
// that does not hold its keys (spec §10.8). Everything is done by the Outcome's `read` (its
// query_stats: 1 scanned, 1 returned); its errors: kTableNotFound, kResourceNotFound,
// kInvalidInput.
Result<Outcome> HandleGetEntity(const RequestContext& ctx);

// Azure: spec §4.5 — 201 + entity body (odata.metadata "#<t>/@Element"), ETag, Location; with
// Prefer: return-no-content 204 + ETag, Location, DataServiceId, Preference-Applied
// (Preference-Applied also on a failed insert). Errors: ParseEntityJson/ValidateEntity errors,
// kPropertiesNeedValue (PartitionKey or RowKey missing in the body); from finish
// kTableNotFound, kEntityAlreadyExists.
Result<Outcome> HandleInsertEntity(const RequestContext& ctx);

// Azure: spec §1.2 — "/<t>/<segment>[(...)]" (route.extra_segment set): the Outcome's `read`
// answers kTableNotFound when <t> does not exist, and then any of the errors below; else a bare
// segment under POST is Insert Entity into <t> (so a body without keys is kPropertiesNeedValue),
// under any other verb kNotImplemented; one key in the predicate is kInvalidInput ("The number of
// keys specified in the URI does not match ..."); PartitionKey and RowKey there are
// kNotImplemented.
Result<Outcome> HandleExtraSegment(const RequestContext& ctx);

// Azure: spec §4.6–4.9 — Update, Merge, Insert Or Replace and Insert Or Merge (ctx.route.op
// says which). Keys come from the URL (body keys ignored). 204 + ETag. Errors: parse and
// validation errors, If-Match syntax errors (CheckIfMatch); from finish kTableNotFound and
// the entity_apply.h errors.
Result<Outcome> HandleWriteEntity(const RequestContext& ctx);

// Azure: spec §4.10 — 204. Errors: kMissingRequiredHeader (no If-Match), If-Match syntax
// errors; from finish kTableNotFound, kResourceNotFound, kUpdateConditionNotSatisfied.
Result<Outcome> HandleDeleteEntity(const RequestContext& ctx);

}  // namespace malachite::server
