// The write semantics of the single-entity operations (spec §3, §4.5–4.10) as plain functions on
// a storage::WriteContext, so that one WriteFn can apply one operation (the entity handlers) or
// many (an entity group transaction).
//
// Every function runs inside the caller's WriteFn; a returned Error means the caller's WriteFn
// should return it so that its nested transaction rolls back. Absence of the *table* is the
// caller's business: these functions take the TableInfo the caller looked up in the same
// WriteContext (so lookup and write are atomic).
#pragma once

#include <string_view>

#include "common/edm.h"
#include "common/entity.h"
#include "common/error.h"
#include "storage/store.h"

namespace malachite::server {

// Checks the syntax of an If-Match value (spec §3): `*` and weak ETags `W/"..."` (either case
// of W) pass. Errors: kUpdateConditionNotSatisfied for an empty value, kInvalidInput for
// anything else. Cheap; handlers call it before submitting a write to fail fast.
Result<void> CheckIfMatch(std::string_view if_match);

// Inserts `entity` (keys and properties set by the caller). On success entity.timestamp holds
// the new Timestamp, which is also returned (the ETag). Errors: kEntityAlreadyExists, storage
// errors. REQUIRES: ValidateEntity(entity) succeeded.
Result<DateTime> ApplyInsert(storage::WriteContext& ctx, const storage::TableInfo& table,
                             Entity& entity);

// Replaces the stored entity with `entity` when `if_match` allows it (spec §3 If-Match table).
// Errors: kResourceNotFound (absent), kUpdateConditionNotSatisfied (stale ETag or empty
// if_match), kInvalidInput (malformed if_match). Sets and returns the new Timestamp.
// REQUIRES: ValidateEntity(entity) succeeded.
Result<DateTime> ApplyUpdate(storage::WriteContext& ctx, const storage::TableInfo& table,
                             Entity& entity, std::string_view if_match);

// Merges `entity` into the stored one (supplied properties overwrite, the others are kept;
// the parser already dropped nulls) when `if_match` allows it. Errors as ApplyUpdate, plus the
// ValidateEntity errors of the merged entity (e.g. kTooManyProperties, kEntityTooLarge).
// Sets entity.timestamp and returns the new Timestamp; entity.properties stay as supplied.
Result<DateTime> ApplyMerge(storage::WriteContext& ctx, const storage::TableInfo& table,
                            Entity& entity, std::string_view if_match);

// Creates or fully replaces, unconditionally. REQUIRES: ValidateEntity(entity) succeeded.
Result<DateTime> ApplyInsertOrReplace(storage::WriteContext& ctx, const storage::TableInfo& table,
                                      Entity& entity);

// Creates `entity`, or merges it into the stored one (ValidateEntity errors of the merged
// entity). Sets entity.timestamp and returns the new Timestamp.
Result<DateTime> ApplyInsertOrMerge(storage::WriteContext& ctx, const storage::TableInfo& table,
                                    Entity& entity);

// Deletes (pk, rk) when `if_match` allows it. Errors: kResourceNotFound, and the If-Match errors
// of ApplyUpdate. A missing If-Match header is the handler's kMissingRequiredHeader.
Result<void> ApplyDelete(storage::WriteContext& ctx, const storage::TableInfo& table,
                         std::string_view pk, std::string_view rk, std::string_view if_match);

}  // namespace malachite::server
