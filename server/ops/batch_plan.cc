#include "server/ops/batch_plan.h"

#include <array>
#include <cstddef>
#include <memory_resource>
#include <unordered_set>
#include <utility>

#include "common/encoding.h"
#include "server/auth/bearer.h"
#include "server/auth/sas_authorize.h"
#include "server/http/negotiation.h"

namespace malachite::server {

std::string_view BatchVersion(const Request& request) {
  return request.Find("x-ms-version").value_or(kDefaultVersion);
}

HostRouting PartRouting(const RequestContext& ctx) {
  return HostRouting{ctx.route.host_style, {ctx.route.account}, {}};
}

Result<void> AuthorizePart(const RequestContext& ctx, Operation op) {
  if (!ctx.rbac) return {};
  return AuthorizeBearerOperation(*ctx.rbac, op);
}

namespace {

// What planning one operation after another reuses: the routing, the last negotiation and the
// route's strings, so that an operation is routed and negotiated without allocating.
struct PlanScratch {
  PlanScratch(const RequestContext& ctx, std::string_view version)
      : routing(PartRouting(ctx)), negotiator(version) {}
  HostRouting routing;
  MetadataNegotiator negotiator;
  Route route;  // the last planned operation's
  // The first operation's table, which passed the name rules: the others, which name the same
  // table, are not checked again (RouteRequest). Views PlanAll's `table`.
  std::string_view valid_table;
};

// Routes and decodes one changeset operation as its single-request form would be into `out` (a
// default PlannedOperation); afterwards `scratch.route` is its route. On an error the part's
// Content-ID is still in `operation`.
Result<void> PlanOperation(const RequestContext& ctx, PlanScratch& scratch,
                           BatchOperation& operation, PlannedOperation& out) {
  Route& route = scratch.route;
  if (auto ok = RouteRequest(operation.request, scratch.routing, route, scratch.valid_table); !ok) {
    return tl::unexpected(ok.error());
  }
  // Emulator: spec §1.2 — "/<t>/<segment>" is not an entity URL inside a batch (not recorded).
  if (route.extra_segment != ExtraSegment::kNone) return Fail(ErrorCode::kInvalidUri);
  // Emulator: spec §7.2 (rec.) — the account in the sub-request URL must be the batch's own.
  if (route.account != ctx.route.account) {
    return Fail(ErrorCode::kInvalidInput, {}, "sub-request names another account");
  }
  // Azure: spec §7.1 — only entity writes inside a changeset (a GET must stand alone).
  if (!IsEntityWrite(route.op)) {
    return Fail(ErrorCode::kInvalidInput, {}, "operation not allowed in a changeset");
  }
  auto level = scratch.negotiator.Negotiate(operation.request, route);
  if (!level) return tl::unexpected(level.error());
  if (auto ok = AuthorizePart(ctx, route.op); !ok) return tl::unexpected(ok.error());
  if (auto ok = DecodeEntityWrite(operation.request, route, out.write); !ok) return ok;
  // Azure: spec §10.8 — under a SAS every operation is authorized on its own (permission, table,
  // key range), as its single request would be.
  if (auto ok = AuthorizeSasEntity(ctx.sas, route.op, route.table, out.write.entity.partition_key,
                                   out.write.entity.row_key);
      !ok) {
    return ok;
  }
  out.content_id = std::move(operation.content_id);
  out.level = *level;
  return {};
}

// Azure: spec §7.1 — one table, one PartitionKey, each (PartitionKey, RowKey) once. `table` is
// the first operation's, `next_table` the one `next` names.
Result<void> CheckBatchRules(std::string_view table, const PlannedOperation& first,
                             std::string_view next_table, const PlannedOperation& next,
                             const std::pmr::unordered_set<std::string_view>& row_keys) {
  if (table != next_table && !AsciiIEquals(table, next_table)) {
    return Fail(ErrorCode::kInvalidInput, {}, "operations on different tables");
  }
  if (first.write.entity.partition_key != next.write.entity.partition_key) {
    return Fail(ErrorCode::kCommandsInBatchActOnDifferentPartitions);
  }
  if (row_keys.contains(next.write.entity.row_key)) {
    return Fail(ErrorCode::kInvalidDuplicateRow);
  }
  return {};
}

}  // namespace

std::optional<PlanFailure> PlanAll(const RequestContext& ctx,
                                   std::vector<BatchOperation>& operations,
                                   std::vector<PlannedOperation>& planned_operations,
                                   std::string& table) {
  // Reserved up front: `row_keys` views the keys of the planned operations in place. Its nodes
  // come from a buffer on the stack (100 keys fit), not one allocation each.
  planned_operations.reserve(operations.size());
  std::array<std::byte, 8 * 1024> arena;
  std::pmr::monotonic_buffer_resource memory(arena.data(), arena.size());
  std::pmr::unordered_set<std::string_view> row_keys(&memory);
  row_keys.reserve(operations.size());
  PlanScratch scratch(ctx, BatchVersion(ctx.request));
  const Route& route = scratch.route;
  for (std::size_t i = 0; i < operations.size(); ++i) {
    // Planned where it is kept (the rejected batch's state is dropped with its partial plan).
    PlannedOperation& planned = planned_operations.emplace_back();
    if (auto ok = PlanOperation(ctx, scratch, operations[i], planned); !ok) {
      return PlanFailure{{i, ok.error()}, operations[i].content_id};
    }
    if (i == 0) {
      table = route.table;
      scratch.valid_table = table;
    } else if (auto ok = CheckBatchRules(table, planned_operations.front(), route.table, planned,
                                         row_keys);
               !ok) {
      return PlanFailure{{i, ok.error()}, planned.content_id};
    }
    row_keys.insert(planned.write.entity.row_key);
  }
  return std::nullopt;
}

}  // namespace malachite::server
