#include "server/ops/entity_ops.h"

#include <memory>
#include <utility>

#include "common/encoding.h"
#include "server/auth/sas_authorize.h"
#include "server/ops/entity_scan.h"
#include "server/ops/entity_write.h"
#include "server/ops/query_ops.h"
#include "server/wire/entity_json_parse.h"
#include "server/wire/entity_json_render.h"
#include "server/wire/select.h"

namespace malachite::server {
namespace {

// Everything an entity write needs after Dispatch returned: the request may be gone by then.
struct WriteState {
  EntityWrite write;
  std::string account;
  std::string table;  // from the URL; replaced by the stored name once found
  std::string base_url;
  MetadataLevel level = MetadataLevel::kMinimal;
};

// The one path of every single-entity write: decode + validate now (entity_write.h), apply in
// the writer's transaction, render once durable. $batch runs the same three steps per operation.
Result<Outcome> HandleEntityWrite(const RequestContext& ctx) {
  auto decoded = DecodeEntityWrite(ctx.request, ctx.route);
  if (!decoded) return tl::unexpected(decoded.error());
  // Azure: spec §10.8 — under a SAS the entity's keys (Insert: from the body) must be in range.
  if (auto ok = AuthorizeSasEntity(ctx.sas, ctx.route.op, ctx.route.table,
                                   decoded->entity.partition_key, decoded->entity.row_key);
      !ok) {
    return tl::unexpected(ok.error());
  }
  auto state = std::make_shared<WriteState>(WriteState{
      std::move(*decoded), ctx.route.account, ctx.route.table, ctx.base_url, ctx.metadata});
  Outcome outcome;
  outcome.partition_charge = PartitionCharge{state->write.entity.partition_key, 1};
  outcome.write_stats = StatsOf(state->write, ctx.request.body.size());
  outcome.write = [state](storage::WriteContext& write) -> Result<void> {
    auto table = FindTableForWrite(write, state->account, state->table);
    if (!table) return tl::unexpected(table.error());
    state->table = table->name;
    return ApplyEntityWrite(write, *table, state->write);
  };
  outcome.finish = [state](Response& response, Result<void> written) -> Result<void> {
    if (!written) {
      // Azure: spec §4.5 — Preference-Applied is sent even on a failed insert.
      const std::string_view applied = PreferenceAppliedValue(state->write.prefer);
      if (!applied.empty()) response.Set("Preference-Applied", std::string(applied));
      return written;
    }
    RenderEntityWrite(state->write, EntityLocation{state->base_url, state->account, state->table},
                      state->level, response);
    return {};
  };
  return outcome;
}

// Azure: spec §1.2 — the table is resolved before the rest of the path or the body: the read
// that runs first (ExtraSegment's) answers kTableNotFound before the decoding's error or write.
Result<void> CheckTableExists(const RequestContext& ctx, Outcome& /*outcome*/) {
  auto view = ctx.store.Read();
  if (!view) return tl::unexpected(view.error());
  auto table = FindTableForRead(**view, ctx);
  if (!table) return tl::unexpected(table.error());
  return {};
}

Result<Outcome> DecodeExtraSegment(const RequestContext& ctx) {
  switch (ctx.route.extra_segment) {
    case ExtraSegment::kBare:
      if (ctx.route.op == Operation::kInsertEntity) return HandleEntityWrite(ctx);
      return Fail(ErrorCode::kNotImplemented);
    case ExtraSegment::kOneKey:
      return Fail(ErrorCode::kInvalidInput,
                  "The number of keys specified in the URI does not match number of key "
                  "properties for the resource '" +
                      ctx.route.account + "." + ctx.route.table + "'.");
    default:
      return Fail(ErrorCode::kNotImplemented);
  }
}

// Get Entity's read (the $filter and $select are parsed here: a point read is admitted on its
// route alone, so its decoding has nothing to hand over).
Result<void> ReadEntity(const RequestContext& ctx, Outcome& outcome) {
  auto filter = ParseFilterParam(ctx.route.query);
  if (!filter) return tl::unexpected(filter.error());
  auto select = ParseSelectParam(ctx.route.query);
  if (!select) return tl::unexpected(select.error());
  auto view = ctx.store.Read();
  if (!view) return tl::unexpected(view.error());
  auto table = FindTableForRead(**view, ctx);
  if (!table) return tl::unexpected(table.error());
  // Azure: spec §10.8 — under a SAS with a key range, an entity outside it is not found.
  if (auto ok = SasPointReadInRange(ctx.sas, ctx.route.partition_key, ctx.route.row_key); !ok) {
    return tl::unexpected(ok.error());
  }
  // Rendered from the stored record while the snapshot holds it: no decoded copy.
  Response& response = outcome.response;
  std::optional<DateTime> timestamp;  // set when the entity exists and passes the filter
  auto found = (*view)->VisitEntity(
      *table, ctx.route.partition_key, ctx.route.row_key, [&](const storage::EntityView& entity) {
        if (*filter && !(*filter)->Matches(entity)) return;
        timestamp = entity.timestamp();
        response.body.reserve(256);
        AppendEntityJson(response.body, StoredEntityJson(entity), ctx.metadata,
                         EntityLocation{ctx.base_url, ctx.route.account, table->name}, *select,
                         true);
      });
  if (!found) return tl::unexpected(found.error());
  view->reset();
  if (!timestamp) return Fail(ErrorCode::kResourceNotFound);
  outcome.query_stats = QueryStats{1, 1, odata::ServiceClass::kPoint};
  response.Set("Content-Type", std::string(JsonContentType(ctx.metadata)));
  response.Set("ETag", FormatETag(*timestamp));
  return {};
}

}  // namespace

Result<Outcome> HandleInsertEntity(const RequestContext& ctx) { return HandleEntityWrite(ctx); }

Result<Outcome> HandleExtraSegment(const RequestContext& ctx) {
  auto decoded = DecodeExtraSegment(ctx);
  if (!decoded) {
    Outcome failed;
    failed.read = [error = std::move(decoded.error())](const RequestContext& read_ctx,
                                                       Outcome& outcome) -> Result<void> {
      if (auto ok = CheckTableExists(read_ctx, outcome); !ok) return ok;
      return tl::unexpected(error);
    };
    return failed;
  }
  decoded->read = CheckTableExists;
  return decoded;
}

Result<Outcome> HandleWriteEntity(const RequestContext& ctx) { return HandleEntityWrite(ctx); }

Result<Outcome> HandleDeleteEntity(const RequestContext& ctx) { return HandleEntityWrite(ctx); }

Result<Outcome> HandleGetEntity(const RequestContext& /*ctx*/) { return ReadOnly(ReadEntity); }

}  // namespace malachite::server
