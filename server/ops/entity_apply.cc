#include "server/ops/entity_apply.h"

#include <optional>
#include <utility>

#include "common/validation.h"

namespace malachite::server {
namespace {

bool IsWildcard(std::string_view if_match) { return if_match == "*"; }

// Azure: spec §3 — the stored entity must exist; `*` matches any version, otherwise the header
// must equal the current ETag string exactly.
Result<Entity> CheckCondition(storage::WriteContext& ctx, const storage::TableInfo& table,
                              std::string_view pk, std::string_view rk, std::string_view if_match) {
  if (auto syntax = CheckIfMatch(if_match); !syntax) return tl::unexpected(syntax.error());
  auto stored = ctx.GetEntity(table, pk, rk);
  if (!stored) return tl::unexpected(stored.error());
  if (!stored->has_value()) return Fail(ErrorCode::kResourceNotFound);
  if (!IsWildcard(if_match) && FormatETag((*stored)->timestamp) != if_match) {
    return Fail(ErrorCode::kUpdateConditionNotSatisfied);
  }
  return std::move(**stored);
}

// Overwrites or appends every supplied property of `changes` into `target` (spec §4.7). Keeps
// the target's order and appends new names in the order the client wrote them.
void MergeInto(Entity& target, const Entity& changes) {
  target.properties.reserve(target.properties.size() + changes.properties.size());
  for (const Property& property : changes.properties) {
    if (Property* existing = target.Find(property.name)) {
      existing->value = property.value;
    } else {
      target.properties.push_back(property);
    }
  }
}

// Stamps `entity` with a fresh Timestamp and stores it.
Result<DateTime> Put(storage::WriteContext& ctx, const storage::TableInfo& table, Entity& entity) {
  entity.timestamp = ctx.NextTimestamp();
  if (auto put = ctx.PutEntity(table, entity); !put) return tl::unexpected(put.error());
  return entity.timestamp;
}

// Merges `changes` into `stored`, validates the result (the merged entity must respect the
// limits of spec §9.3 even when each request alone did) and stores it.
Result<DateTime> PutMerged(storage::WriteContext& ctx, const storage::TableInfo& table,
                           Entity& stored, Entity& changes) {
  MergeInto(stored, changes);
  if (auto valid = ValidateEntity(stored); !valid) return tl::unexpected(valid.error());
  auto timestamp = Put(ctx, table, stored);
  if (timestamp) changes.timestamp = *timestamp;
  return timestamp;
}

}  // namespace

Result<void> CheckIfMatch(std::string_view if_match) {
  // Azure: spec §3 — empty -> 412 (Azurite); not `*` and not W/"..." -> 400 InvalidInput.
  if (if_match.empty()) return Fail(ErrorCode::kUpdateConditionNotSatisfied);
  if (IsWildcard(if_match)) return {};
  const bool weak = if_match.size() >= 4 && (if_match[0] == 'W' || if_match[0] == 'w') &&
                    if_match[1] == '/' && if_match[2] == '"' && if_match.back() == '"';
  if (weak) {
    // Inner quotes must be escaped (Azurite regex ^[wW]/"([^"]|\\")*"$).
    const std::string_view inner = if_match.substr(3, if_match.size() - 4);
    bool ok = true;
    for (std::size_t i = 0; i < inner.size(); ++i) {
      if (inner[i] == '"' && (i == 0 || inner[i - 1] != '\\')) ok = false;
    }
    if (ok) return {};
  }
  std::string message = "The etag value '";
  message.append(if_match);
  message.append(
      "' specified in one of the request headers is not valid. Please make sure "
      "only one etag value is specified and is valid.");
  return Fail(ErrorCode::kInvalidInput, std::move(message));
}

Result<DateTime> ApplyInsert(storage::WriteContext& ctx, const storage::TableInfo& table,
                             Entity& entity) {
  auto inserted = ctx.InsertEntity(table, entity);
  if (!inserted) return tl::unexpected(inserted.error());
  if (!*inserted) return Fail(ErrorCode::kEntityAlreadyExists);
  return entity.timestamp;
}

Result<DateTime> ApplyUpdate(storage::WriteContext& ctx, const storage::TableInfo& table,
                             Entity& entity, std::string_view if_match) {
  auto stored = CheckCondition(ctx, table, entity.partition_key, entity.row_key, if_match);
  if (!stored) return tl::unexpected(stored.error());
  return Put(ctx, table, entity);
}

Result<DateTime> ApplyMerge(storage::WriteContext& ctx, const storage::TableInfo& table,
                            Entity& entity, std::string_view if_match) {
  auto stored = CheckCondition(ctx, table, entity.partition_key, entity.row_key, if_match);
  if (!stored) return tl::unexpected(stored.error());
  return PutMerged(ctx, table, *stored, entity);
}

Result<DateTime> ApplyInsertOrReplace(storage::WriteContext& ctx, const storage::TableInfo& table,
                                      Entity& entity) {
  return Put(ctx, table, entity);
}

Result<DateTime> ApplyInsertOrMerge(storage::WriteContext& ctx, const storage::TableInfo& table,
                                    Entity& entity) {
  auto stored = ctx.GetEntity(table, entity.partition_key, entity.row_key);
  if (!stored) return tl::unexpected(stored.error());
  if (!stored->has_value()) return Put(ctx, table, entity);
  return PutMerged(ctx, table, **stored, entity);
}

Result<void> ApplyDelete(storage::WriteContext& ctx, const storage::TableInfo& table,
                         std::string_view pk, std::string_view rk, std::string_view if_match) {
  if (IsWildcard(if_match)) {
    // `*` needs no read: the delete itself tells whether the entity was there.
    auto deleted = ctx.DeleteEntity(table, pk, rk);
    if (!deleted) return tl::unexpected(deleted.error());
    if (!*deleted) return Fail(ErrorCode::kResourceNotFound);
    return {};
  }
  auto stored = CheckCondition(ctx, table, pk, rk, if_match);
  if (!stored) return tl::unexpected(stored.error());
  auto deleted = ctx.DeleteEntity(table, pk, rk);
  if (!deleted) return tl::unexpected(deleted.error());
  return {};
}

}  // namespace malachite::server
