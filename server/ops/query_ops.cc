#include "server/ops/query_ops.h"

#include <chrono>
#include <utility>
#include <vector>

#include "common/encoding.h"
#include "odata/planner.h"
#include "server/ops/query_log.h"
#include "server/wire/entity_json_parse.h"
#include "server/wire/entity_json_render.h"
#include "server/wire/select.h"
#include "storage/entity_codec.h"
#include "storage/stored_entities.h"

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

// A page entity as the renderer reads it: keys and properties straight from the copied record,
// never decoded into an Entity.
class StoredEntityJson final : public EntityJsonSource {
 public:
  explicit StoredEntityJson(const storage::StoredEntities::Entry& entry) : entry_(entry) {
    // The scan read this record's header (or encoded the entity itself): it parses. Were it
    // malformed, it would render with no properties, as a partly readable list renders its
    // readable part.
    (void)record_.Reset(entry.record);
  }
  std::string_view partition_key() const override { return entry_.partition_key; }
  std::string_view row_key() const override { return entry_.row_key; }
  DateTime timestamp() const override { return record_.timestamp(); }
  void ForEachProperty(
      FunctionRef<void(std::string_view, const PropertyView&)> visit) const override {
    (void)record_.ForEach(visit);
  }
  std::optional<PropertyView> FindProperty(std::string_view name) const override {
    return record_.Find(name);
  }

 private:
  storage::StoredEntities::Entry entry_;
  storage::EntityRecord record_;
};

std::string RenderPage(const storage::StoredEntities& entities, MetadataLevel level,
                       const EntityLocation& where, const Selection& select) {
  EntityFeedWriter feed(level, where, select, entities.size());
  for (std::size_t i = 0; i < entities.size(); ++i) feed.Add(StoredEntityJson(entities[i]));
  return feed.Finish();
}

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

Result<Outcome> HandleQueryEntities(const RequestContext& ctx) {
  auto options = ParseQueryOptions(ctx.route.query);
  if (!options) return tl::unexpected(options.error());
  // The plan points into options->filter, which stays in place until the end of this call.
  const odata::ScanPlan plan = odata::ScanPlan::Make(options->filter ? &*options->filter : nullptr);
  auto view = ctx.store.Read();
  if (!view) return tl::unexpected(view.error());
  auto table = FindTableForRead(**view, ctx);
  if (!table) return tl::unexpected(table.error());
  const ScanLimits limits{options->top, std::chrono::steady_clock::now() + ctx.query_budget};
  // Azure: spec §10.8 — a SAS with a key range sees only the entities inside it.
  const KeyRange* within = ctx.sas && ctx.sas->range ? &*ctx.sas->range : nullptr;
  auto page = ScanPage(**view, *table, plan, options->start, limits, within);
  if (!page) return tl::unexpected(page.error());
  view->reset();  // end the snapshot before rendering

  const QueryStats stats{page->scanned, page->entities.size(), plan.service_class()};
  LogQuery(ctx.route.account, table->name, plan, stats);
  Outcome outcome;
  outcome.query_stats = stats;
  if (auto partition = OnePartition(plan))
    outcome.partition_charge = PartitionCharge{*partition, 1};
  Response& response = outcome.response;
  response.body =
      RenderPage(page->entities, ctx.metadata,
                 EntityLocation{ctx.base_url, ctx.route.account, table->name}, options->select);
  response.Set("Content-Type", std::string(JsonContentType(ctx.metadata)));
  if (page->next) {
    response.Set("x-ms-continuation-NextPartitionKey",
                 EncodeContinuationKey(page->next->partition_key));
    response.Set("x-ms-continuation-NextRowKey", EncodeContinuationKey(*page->next->row_key));
  }
  if (ctx.explain) response.Set(std::string(kQueryPlanHeader), ExplainQuery(plan, stats));
  return outcome;
}

}  // namespace malachite::server
