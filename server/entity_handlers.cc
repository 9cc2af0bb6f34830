#include "server/entity_handlers.h"

#include <memory>
#include <utility>

#include "common/encoding.h"
#include "common/validation.h"
#include "server/entity_json.h"
#include "server/entity_ops.h"

namespace malachite::server {
namespace {

// Looks the table up inside the writer's transaction, so that a concurrent Delete Table either
// happens entirely before (TableNotFound) or after this write.
Result<storage::TableInfo> FindTableForWrite(storage::WriteContext& write,
                                             std::string_view account, std::string_view table) {
  auto found = write.FindTable(account, table);
  if (!found) return tl::unexpected(found.error());
  if (!found->has_value()) return Fail(ErrorCode::kTableNotFound);
  return std::move(**found);
}

void AppendQuotedKey(std::string& out, std::string_view key) {
  std::string doubled;
  doubled.reserve(key.size());
  for (char c : key) {
    doubled.push_back(c);
    if (c == '\'') doubled.push_back('\'');
  }
  out.push_back('\'');
  out.append(PercentEncode(doubled));
  out.push_back('\'');
}

// Everything an entity write needs after Dispatch returned: the request may be gone by then.
struct WriteState {
  Operation op;
  std::string account;
  std::string table;  // from the URL; replaced by the stored name once found
  std::string if_match;
  Entity entity;
  std::string base_url;
  MetadataLevel level = MetadataLevel::kMinimal;
  PreferReturn prefer = PreferReturn::kNone;
};

Result<DateTime> ApplyWrite(storage::WriteContext& write, WriteState& state) {
  auto table = FindTableForWrite(write, state.account, state.table);
  if (!table) return tl::unexpected(table.error());
  state.table = table->name;
  switch (state.op) {
    case Operation::kInsertEntity:
      return ApplyInsert(write, *table, state.entity);
    case Operation::kUpdateEntity:
      return ApplyUpdate(write, *table, state.entity, state.if_match);
    case Operation::kMergeEntity:
      return ApplyMerge(write, *table, state.entity, state.if_match);
    case Operation::kInsertOrReplaceEntity:
      return ApplyInsertOrReplace(write, *table, state.entity);
    case Operation::kInsertOrMergeEntity:
      return ApplyInsertOrMerge(write, *table, state.entity);
    default:
      break;
  }
  return Fail(ErrorCode::kInternalError, {}, "ApplyWrite: not an entity write");
}

std::shared_ptr<WriteState> MakeState(const RequestContext& ctx, Entity entity) {
  auto state = std::make_shared<WriteState>();
  state->op = ctx.route.op;
  state->account = ctx.route.account;
  state->table = ctx.route.table;
  state->entity = std::move(entity);
  state->base_url = ctx.base_url;
  state->level = ctx.metadata;
  return state;
}

Result<void> RenderInserted(Response& response, const WriteState& state) {
  const Entity& entity = state.entity;
  response.Set("ETag", FormatETag(entity.timestamp));
  std::string location = state.base_url;
  location.push_back('/');
  location.append(EntityPath(state.table, entity.partition_key, entity.row_key));
  if (state.prefer == PreferReturn::kNoContent) {
    response.status = 204;
    response.Set("Location", location);
    response.Set("DataServiceId", std::move(location));
    return {};
  }
  response.Set("Location", std::move(location));
  response.status = 201;
  response.body.reserve(256);
  AppendEntityJson(response.body, entity, state.level,
                   EntityLocation{state.base_url, state.account, state.table}, Selection{}, true);
  response.Set("Content-Type", std::string(JsonContentType(state.level)));
  return {};
}

}  // namespace

std::string EntityPath(std::string_view table, std::string_view pk, std::string_view rk) {
  std::string out;
  out.reserve(table.size() + pk.size() + rk.size() + 32);
  out.append(table);
  out.append("(PartitionKey=");
  AppendQuotedKey(out, pk);
  out.append(",RowKey=");
  AppendQuotedKey(out, rk);
  out.push_back(')');
  return out;
}

Result<Outcome> HandleInsertEntity(const RequestContext& ctx) {
  auto parsed = ParseEntityJson(ctx.request.body);
  if (!parsed) return tl::unexpected(parsed.error());
  // Azure: spec §4.5 — Insert takes both keys from the body.
  if (!parsed->has_partition_key || !parsed->has_row_key) {
    return Fail(ErrorCode::kPropertiesNeedValue);
  }
  if (auto valid = ValidateEntity(parsed->entity); !valid) return tl::unexpected(valid.error());
  auto state = MakeState(ctx, std::move(parsed->entity));
  state->prefer = ParsePrefer(ctx.request);

  Outcome outcome;
  outcome.write = [state](storage::WriteContext& write) -> Result<void> {
    auto timestamp = ApplyWrite(write, *state);
    if (!timestamp) return tl::unexpected(timestamp.error());
    return {};
  };
  outcome.finish = [state](Response& response, Result<void> written) -> Result<void> {
    // Azure: spec §4.5 — Preference-Applied is sent even on a failed insert.
    const std::string_view applied = PreferenceAppliedValue(state->prefer);
    if (!applied.empty()) response.Set("Preference-Applied", std::string(applied));
    if (!written) return written;
    return RenderInserted(response, *state);
  };
  return outcome;
}

Result<Outcome> HandleWriteEntity(const RequestContext& ctx) {
  auto parsed = ParseEntityJson(ctx.request.body);
  if (!parsed) return tl::unexpected(parsed.error());
  // Azure: spec §3 — keys are immutable and come from the URL; body keys are ignored.
  parsed->entity.partition_key = ctx.route.partition_key;
  parsed->entity.row_key = ctx.route.row_key;
  if (auto valid = ValidateEntity(parsed->entity); !valid) return tl::unexpected(valid.error());
  auto state = MakeState(ctx, std::move(parsed->entity));
  if (ctx.route.op == Operation::kUpdateEntity || ctx.route.op == Operation::kMergeEntity) {
    // The router chose Update/Merge because If-Match is present (spec §1.4).
    state->if_match = ctx.request.Find("If-Match").value_or(std::string_view());
    if (auto syntax = CheckIfMatch(state->if_match); !syntax) {
      return tl::unexpected(syntax.error());
    }
  }
  Outcome outcome;
  outcome.write = [state](storage::WriteContext& write) -> Result<void> {
    auto timestamp = ApplyWrite(write, *state);
    if (!timestamp) return tl::unexpected(timestamp.error());
    return {};
  };
  outcome.finish = [state](Response& response, Result<void> written) -> Result<void> {
    if (!written) return written;
    response.status = 204;
    response.Set("ETag", FormatETag(state->entity.timestamp));
    return {};
  };
  return outcome;
}

Result<Outcome> HandleDeleteEntity(const RequestContext& ctx) {
  const auto if_match = ctx.request.Find("If-Match");
  // Azure: spec §4.10 — If-Match is mandatory on Delete Entity (`*` = unconditional).
  if (!if_match) return Fail(ErrorCode::kMissingRequiredHeader);
  if (auto syntax = CheckIfMatch(*if_match); !syntax) return tl::unexpected(syntax.error());
  struct State {
    std::string account;
    std::string table;
    std::string pk;
    std::string rk;
    std::string if_match;
  };
  auto state = std::make_shared<State>(State{ctx.route.account, ctx.route.table,
                                             ctx.route.partition_key, ctx.route.row_key,
                                             std::string(*if_match)});
  Outcome outcome;
  outcome.write = [state](storage::WriteContext& write) -> Result<void> {
    auto table = FindTableForWrite(write, state->account, state->table);
    if (!table) return tl::unexpected(table.error());
    return ApplyDelete(write, *table, state->pk, state->rk, state->if_match);
  };
  outcome.finish = [](Response& response, Result<void> written) -> Result<void> {
    if (!written) return written;
    response.status = 204;
    return {};
  };
  return outcome;
}

}  // namespace malachite::server
