#include "server/ops/query_ops.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>
#include <vector>

#include "common/encoding.h"
#include "odata/planner.h"
#include "server/ops/query_log.h"
#include "server/wire/entity_json_parse.h"
#include "server/wire/entity_json_render.h"
#include "server/wire/select.h"

namespace malachite::server {
namespace {

struct QueryOptions {
  std::optional<odata::Filter> filter;
  Selection select;
  std::size_t top = 0;
  std::optional<KeyBound> start;  // NextPartitionKey/NextRowKey: where the page resumes
};

Result<QueryOptions> ParseQueryOptions(const QueryParams& query) {
  QueryOptions options;
  auto filter = ParseFilterParam(query);
  if (!filter) return tl::unexpected(filter.error());
  options.filter = std::move(*filter);
  auto select = ParseSelectParam(query);
  if (!select) return tl::unexpected(select.error());
  options.select = std::move(*select);
  auto top = ParseTop(query);
  if (!top) return tl::unexpected(top.error());
  options.top = *top;
  // Azure: spec §6.5 — resume exactly at the continuation key; NextRowKey may be absent.
  const std::string* next_pk = query.Find("NextPartitionKey");
  if (next_pk != nullptr && !next_pk->empty()) {
    auto pk = DecodeContinuationKey(*next_pk);
    if (!pk) return tl::unexpected(pk.error());
    KeyBound start{std::move(*pk), std::nullopt, true};
    const std::string* next_rk = query.Find("NextRowKey");
    if (next_rk != nullptr && !next_rk->empty()) {
      auto rk = DecodeContinuationKey(*next_rk);
      if (!rk) return tl::unexpected(rk.error());
      start.row_key = std::move(*rk);
    }
    options.start = std::move(start);
  }
  return options;
}

// The PartitionKey every range of `plan` stays inside, if there is one (for the throttle).
std::optional<std::string> OnePartition(const odata::ScanPlan& plan) {
  const auto& ranges = plan.ranges();
  if (ranges.empty() || !ranges.front().InOnePartition()) return std::nullopt;
  const std::string& key = ranges.front().lower->partition_key;
  for (const KeyRange& range : ranges) {
    if (!range.InOnePartition() || range.lower->partition_key != key) return std::nullopt;
  }
  return key;
}

// A decoded Query Entities request, shared with its read. Not moved once planned: the plan points
// into options.filter.
struct EntityQuery {
  QueryOptions options;
  std::optional<odata::ScanPlan> plan;
};

// Feed buffers are sized for this many entities at most: most pages are shorter than the default
// $top of 1,000, and a longer one grows the buffer.
constexpr std::size_t kExpectedPageEntities = 128;

}  // namespace

Result<storage::TableInfo> FindTableForRead(storage::ReadView& view, const RequestContext& ctx) {
  auto table = view.FindTable(ctx.route.account, ctx.route.table);
  if (!table) return tl::unexpected(table.error());
  if (!table->has_value()) return Fail(ErrorCode::kTableNotFound);
  return std::move(**table);
}

Result<std::optional<odata::Filter>> ParseFilterParam(const QueryParams& query) {
  const std::string* text = query.Find("$filter");
  if (text == nullptr || text->find_first_not_of(" \t") == std::string::npos) {
    return std::optional<odata::Filter>();
  }
  auto filter = odata::Filter::Parse(*text);
  if (!filter) return tl::unexpected(filter.error());
  return std::optional<odata::Filter>(std::move(*filter));
}

Result<Selection> ParseSelectParam(const QueryParams& query) {
  const std::string* text = query.Find("$select");
  if (text == nullptr || text->empty()) return Selection{};
  return ParseSelect(*text);
}

std::string EncodeContinuationKey(std::string_view key) {
  std::string token = "1!";
  std::string base64 = Base64Encode(key);
  token.reserve(2 + base64.size());
  for (char c : base64) {
    if (c == '=') break;
    token.push_back(c == '+' ? '-' : c == '/' ? '_' : c);
  }
  return token;
}

Result<std::string> DecodeContinuationKey(std::string_view token) {
  if (token.substr(0, 2) != "1!" || token.size() % 4 == 3) {  // 2 + 4n+1 chars cannot be base64
    return Fail(ErrorCode::kInvalidInput);
  }
  std::string base64(token.substr(2));
  for (char& c : base64) {
    if (c == '+' || c == '/' || c == '=') return Fail(ErrorCode::kInvalidInput);
    if (c == '-') c = '+';
    if (c == '_') c = '/';
  }
  base64.append((4 - base64.size() % 4) % 4, '=');
  auto key = Base64Decode(base64);
  if (!key) return Fail(ErrorCode::kInvalidInput);
  return std::move(*key);
}

namespace {

// Query Entities' read: one page of the planned scan, rendered as it is found.
Result<void> ReadQueryPage(const RequestContext& ctx, const EntityQuery& query, Outcome& outcome) {
  const QueryOptions& options = query.options;
  const odata::ScanPlan& plan = *query.plan;
  auto view = ctx.store.Read();
  if (!view) return tl::unexpected(view.error());
  auto table = FindTableForRead(**view, ctx);
  if (!table) return tl::unexpected(table.error());
  const ScanLimits limits{options.top, std::chrono::steady_clock::now() + ctx.query_budget};
  // Azure: spec §10.8 — a SAS with a key range sees only the entities inside it.
  const KeyRange* within = ctx.sas && ctx.sas->range ? &*ctx.sas->range : nullptr;
  // The feed is rendered as the scan finds each match, from the record where LMDB holds it (no
  // copy of the page); rendering is synchronous, so the snapshot ends before anything suspends.
  const EntityLocation where{ctx.base_url, ctx.route.account, table->name};
  EntityFeedWriter feed(ctx.metadata, where, options.select,
                        std::min(options.top, kExpectedPageEntities));
  const auto render = [&feed](const EntityJsonSource& entity) { feed.Add(entity); };
  // Azure: spec §6.5 — $top=0 answers an empty page; Emulator: with no continuation (nothing
  // is examined, and a continuation naming the start would page forever).
  Result<EntityPage> page = EntityPage{};
  if (options.top > 0) page = ScanPage(**view, *table, plan, options.start, limits, render, within);
  if (!page) return tl::unexpected(page.error());
  view->reset();

  QueryStats stats{page->scanned, page->matched, plan.service_class(), page->type_mismatch};
  // A key or Timestamp compared with a literal of another type is a mismatch whatever the
  // entities (a plan that scans nothing, `PartitionKey eq 5`, has no entity to show it).
  if (!stats.type_mismatch && options.filter) {
    stats.type_mismatch = odata::FindTypeMismatch(options.filter->root(), nullptr);
  }
  LogQuery(ctx.route.account, table->name, plan, stats);
  outcome.query_stats = stats;
  Response& response = outcome.response;
  response.body = feed.Finish();
  response.Set("Content-Type", std::string(JsonContentType(ctx.metadata)));
  if (page->next) {
    response.Set("x-ms-continuation-NextPartitionKey",
                 EncodeContinuationKey(page->next->partition_key));
    response.Set("x-ms-continuation-NextRowKey", EncodeContinuationKey(*page->next->row_key));
  }
  if (ctx.explain) response.Set(std::string(kQueryPlanHeader), ExplainQuery(plan, stats));
  return {};
}

}  // namespace

Result<Outcome> HandleQueryEntities(const RequestContext& ctx) {
  auto options = ParseQueryOptions(ctx.route.query);
  if (!options) return tl::unexpected(options.error());
  auto query = std::make_shared<EntityQuery>();
  query->options = std::move(*options);
  const odata::Filter* filter = query->options.filter ? &*query->options.filter : nullptr;
  query->plan.emplace(odata::ScanPlan::Make(filter));
  Outcome outcome;
  // Azure: spec §12.1 — admitted for 1 entity in the one partition its plan stays inside, if
  // any; the rest of its scan is charged after the read.
  if (auto partition = OnePartition(*query->plan)) {
    outcome.partition_charge = PartitionCharge{*partition, 1};
  }
  outcome.read = [query](const RequestContext& read_ctx, Outcome& read_outcome) {
    return ReadQueryPage(read_ctx, *query, read_outcome);
  };
  return outcome;
}

}  // namespace malachite::server
