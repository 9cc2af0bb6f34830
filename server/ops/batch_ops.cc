#include "server/ops/batch_ops.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/limits.h"
#include "common/refusal.h"
#include "server/auth/sas_authorize.h"
#include "server/http/negotiation.h"
#include "server/http/router.h"
#include "server/ops/batch_plan.h"
#include "server/ops/entity_ops.h"
#include "server/ops/entity_write.h"
#include "server/ops/query_ops.h"
#include "server/wire/batch_response.h"
#include "server/wire/multipart.h"

namespace malachite::server {
namespace {

// Everything the WriteFn and finish need once Dispatch has returned.
struct BatchState {
  std::string account;
  std::string table;  // from the first operation; the stored name once found
  std::string base_url;
  std::string request_id;
  const Clock* clock = nullptr;
  std::vector<PlannedOperation> operations;
  std::optional<OperationFailure> failure;  // set by the WriteFn when an operation failed
};

// Azure: spec §7.4, §15 item 5 — in a changeset of exactly one operation, the entity-level
// execution failures carry neither the index prefix nor the Content-ID; everything else does.
bool DropsIndex(std::size_t operation_count, ErrorCode code) {
  return operation_count == 1 &&
         (code == ErrorCode::kResourceNotFound || code == ErrorCode::kEntityAlreadyExists ||
          code == ErrorCode::kUpdateConditionNotSatisfied);
}

void RenderFailure(std::size_t operation_count, const OperationFailure& failure,
                   const std::optional<std::string>& content_id, std::string_view request_id,
                   DateTime now, Response& response) {
  BatchResponseWriter writer(true);
  if (DropsIndex(operation_count, failure.error.code)) {
    writer.AddError(failure.error, std::nullopt, std::nullopt, request_id, now);
  } else {
    writer.AddError(failure.error, failure.index, content_id, request_id, now);
  }
  writer.Finish(response);
}

// A batch rejected before any write: answered at once (still 202, spec §7.1 "Status").
Outcome Rejected(const RequestContext& ctx, std::size_t operation_count, OperationFailure failure,
                 const std::optional<std::string>& content_id) {
  Outcome outcome;
  RenderFailure(operation_count, failure, content_id, ctx.request_id, ctx.clock.Now(),
                outcome.response);
  outcome.refusal = std::move(failure.error);
  return outcome;
}

// The WriteFn: every operation in order inside the one nested transaction the writer gives this
// request; the first failure is recorded and returned, which rolls all of them back.
Result<void> ApplyAll(storage::WriteContext& write, BatchState& state) {
  // A WriteFn may run again (storage/store.h: after the map grew): forget the last run's failure.
  state.failure.reset();
  auto table = FindTableForWrite(write, state.account, state.table);
  if (!table) {
    // Azure: spec §7.4 — TableNotFound carries the index of the first operation.
    state.failure = OperationFailure{0, table.error()};
    return tl::unexpected(table.error());
  }
  for (std::size_t i = 0; i < state.operations.size(); ++i) {
    if (auto applied = ApplyEntityWrite(write, *table, state.operations[i].write); !applied) {
      state.failure = OperationFailure{i, applied.error()};
      return applied;
    }
  }
  state.table = table->name;
  return {};
}

// One operation's answer written straight into the multipart body: no Response in between.
class PartAnswer final : public WriteAnswer {
 public:
  PartAnswer(BatchResponseWriter& writer, const std::optional<std::string>& content_id,
             std::string& body)
      : writer_(writer), content_id_(content_id), body_(body) {}
  void Status(int status) override { writer_.OpenPart(status, content_id_); }
  void Header(std::string_view name, std::string_view value) override {
    writer_.PartHeader(name, value);
  }
  std::string& Body() override { return body_; }

 private:
  BatchResponseWriter& writer_;
  const std::optional<std::string>& content_id_;
  std::string& body_;
};

void RenderSuccess(const BatchState& state, Response& response) {
  BatchResponseWriter writer(true, state.operations.size());
  const EntityLocation where{state.base_url, state.account, state.table};
  std::string body;  // an operation's entity JSON, reused
  for (const PlannedOperation& operation : state.operations) {
    body.clear();
    PartAnswer answer(writer, operation.content_id, body);
    RenderEntityWrite(operation.write, where, operation.level, answer);
    // Azure: spec §7.3 — real captures show DataServiceVersion 1.0 on update/merge/delete parts.
    const bool insert = operation.write.op == Operation::kInsertEntity;
    writer.ClosePart(insert ? "3.0;" : "1.0;", body);
  }
  writer.Finish(response);
}

// Azure: spec §7.1, §7.3 — a lone GET of one entity, answered in a part without changeset. All of
// it runs in the batch's read (admitted as the $batch request itself: 1 entity, no partition).
Result<void> ReadBatchQuery(const RequestContext& ctx, const BatchOperation& operation,
                            Outcome& outcome) {
  auto answer = [&]() -> Result<Response> {
    auto route = RouteRequest(operation.request, PartRouting(ctx));
    if (!route) return tl::unexpected(route.error());
    if (route->extra_segment != ExtraSegment::kNone) return Fail(ErrorCode::kInvalidUri);
    if (route->account != ctx.route.account || route->op != Operation::kGetEntity) {
      return Fail(ErrorCode::kInvalidInput, {}, "a batch outside a changeset holds one GET");
    }
    if (auto ok = AuthorizePart(ctx, route->op); !ok) return tl::unexpected(ok.error());
    auto level = NegotiateMetadata(operation.request, *route, BatchVersion(ctx.request));
    if (!level) return tl::unexpected(level.error());
    // The key range is Get Entity's own check (spec §10.8: outside it, ResourceNotFound).
    if (ctx.sas != nullptr) {
      if (auto ok = AuthorizeSasOperation(*ctx.sas, route->op, route->table); !ok) {
        return tl::unexpected(ok.error());
      }
    }
    RequestContext sub{operation.request, *route,    *level,        ctx.base_url,
                       ctx.clock,         ctx.store, ctx.request_id};
    sub.sas = ctx.sas;
    sub.rbac = ctx.rbac;
    auto got = HandleGetEntity(sub);
    if (!got) return tl::unexpected(got.error());
    if (auto read = got->read(sub, *got); !read) return tl::unexpected(read.error());
    return std::move(got->response);
  }();
  BatchResponseWriter writer(false);
  if (answer) {
    writer.AddPart(*answer, operation.content_id, "3.0;");
  } else {
    writer.AddError(answer.error(), std::nullopt, operation.content_id, ctx.request_id,
                    ctx.clock.Now());
  }
  writer.Finish(outcome.response);
  return {};
}

// The Outcome of a lone GET: its request is kept (the decoded body is the thread's scratch) for
// the read.
Outcome HandleBatchQuery(BatchOperation& operation) {
  auto kept = std::make_shared<BatchOperation>(std::move(operation));
  return ReadOnly([kept](const RequestContext& ctx, Outcome& outcome) {
    return ReadBatchQuery(ctx, *kept, outcome);
  });
}

// The thread's decoded batch body, reused so that the up to 100 embedded requests of a batch
// keep their strings' capacity for the next one: once warm, decoding allocates nothing. After a
// large body it is released rather than kept per thread. Handlers run synchronously, so one
// lease per thread is live at a time.
class BatchBodyLease {
 public:
  explicit BatchBodyLease(std::size_t body_bytes) : body_bytes_(body_bytes) {}
  BatchBodyLease(const BatchBodyLease&) = delete;
  BatchBodyLease& operator=(const BatchBodyLease&) = delete;
  ~BatchBodyLease() {
    if (body_bytes_ > kKeepBodyBytes) Scratch() = BatchBody{};
  }
  BatchBody& get() { return Scratch(); }

 private:
  static constexpr std::size_t kKeepBodyBytes = 256 * 1024;
  static BatchBody& Scratch() {
    thread_local BatchBody body;
    return body;
  }
  std::size_t body_bytes_;
};

// The largest entity of the changeset (a body of `body_bytes`), for the design advisor.
WriteStats StatsOfAll(const std::vector<PlannedOperation>& operations, std::size_t body_bytes) {
  WriteStats stats;
  for (const PlannedOperation& planned : operations) {
    const WriteStats one = StatsOf(planned.write, body_bytes);
    stats.largest_entity_bytes = std::max(stats.largest_entity_bytes, one.largest_entity_bytes);
    stats.most_properties = std::max(stats.most_properties, one.most_properties);
  }
  return stats;
}

}  // namespace

Result<Outcome> HandleBatch(const RequestContext& ctx) {
  // Azure: spec §7.4 — a body over 4 MiB is a top-level 413 (the pipeline leaves it to us).
  if (ctx.request.body.size() > limits::kRequestBodyMax) {
    return Fail(ErrorCode::kRequestBodyTooLarge);
  }
  BatchBodyLease lease(ctx.request.body.size());
  BatchBody& body = lease.get();
  if (auto ok =
          ParseBatchBody(ctx.request.Find("Content-Type").value_or(""), ctx.request.body, body);
      !ok) {
    return tl::unexpected(ok.error());
  }
  if (!body.changeset) return HandleBatchQuery(body.operations.front());
  std::vector<BatchOperation>& operations = body.operations;
  if (body.too_many_operations) {
    // Azure: spec §7.4 — InvalidInput at index 0 (the service has been seen with 0 and 99).
    Error error{ErrorCode::kInvalidInput,
                "The batch request operation exceeds the maximum 100 changes per change set.",
                RefusalDetail(Refusal::kBatchOperations)};
    return Rejected(ctx, kMaxBatchOperations + 1, {0, std::move(error)}, std::nullopt);
  }

  auto state = std::make_shared<BatchState>();
  state->account = ctx.route.account;
  state->base_url = ctx.base_url;
  state->request_id = std::string(ctx.request_id);
  state->clock = &ctx.clock;
  if (auto failed = PlanAll(ctx, operations, state->operations, state->table)) {
    return Rejected(ctx, operations.size(), std::move(failed->failure), failed->content_id);
  }
  Outcome outcome;
  if (state->operations.empty()) {
    RenderSuccess(*state, outcome.response);
    return outcome;
  }
  // Azure: spec §12.1 — a batch of N counts N entities against its one partition.
  outcome.partition_charge = PartitionCharge{state->operations.front().write.entity.partition_key,
                                             state->operations.size(), state->table};
  outcome.write_stats = StatsOfAll(state->operations, ctx.request.body.size());
  outcome.write = [state](storage::WriteContext& write) { return ApplyAll(write, *state); };
  outcome.finish = [state](Response& response, Result<void> written) -> Result<void> {
    if (written) {
      RenderSuccess(*state, response);
      return {};
    }
    // A commit failure of the whole group (nothing recorded) stays a top-level error.
    if (!state->failure) return written;
    const auto& content_id = state->operations[state->failure->index].content_id;
    RenderFailure(state->operations.size(), *state->failure, content_id, state->request_id,
                  state->clock->Now(), response);
    return {};
  };
  return outcome;
}

}  // namespace malachite::server
