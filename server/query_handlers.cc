#include "server/query_handlers.h"

#include <chrono>
#include <utility>
#include <vector>

#include "common/encoding.h"
#include "server/entity_json.h"

namespace malachite::server {
namespace {

// Azure: spec §6.5 — a query may run about 5 s before the service returns what it has plus a
// continuation. Checked every kBudgetStride scanned entities to keep the clock off the hot path.
constexpr std::chrono::seconds kScanBudget{5};
constexpr std::size_t kBudgetStride = 4096;

odata::ValueView ViewOf(const EdmValue& value) {
  odata::ValueView view;
  view.type = value.type;
  view.integer = value.integer;
  view.number = value.number;
  view.bytes = value.bytes;
  return view;
}

odata::ValueView StringView(std::string_view text) {
  odata::ValueView view;
  view.type = EdmType::kString;
  view.bytes = text;
  return view;
}

std::optional<odata::ValueView> SystemProperty(std::string_view name, std::string_view pk,
                                               std::string_view rk, DateTime timestamp) {
  if (name == "PartitionKey") return StringView(pk);
  if (name == "RowKey") return StringView(rk);
  if (name == "Timestamp") {
    odata::ValueView view;
    view.type = EdmType::kDateTime;
    view.integer = timestamp.ticks;
    return view;
  }
  return std::nullopt;
}

// An EntityView for $filter: properties are read in place from LMDB memory, so an entity the
// filter rejects is never copied; only a matching one is decoded, for the page.
class ViewSource final : public odata::PropertySource {
 public:
  explicit ViewSource(const storage::EntityView& view) : view_(view) {}
  std::optional<odata::ValueView> Get(std::string_view name) const override {
    if (auto system = SystemProperty(name, view_.partition_key(), view_.row_key(),
                                     view_.timestamp())) {
      return system;
    }
    const auto property = view_.GetProperty(name);
    if (!property) return std::nullopt;
    odata::ValueView view;
    view.type = property->type;
    view.integer = property->integer;
    view.number = property->number;
    view.bytes = property->bytes;
    return view;
  }

 private:
  const storage::EntityView& view_;
};

struct QueryOptions {
  std::optional<odata::Filter> filter;
  Selection select;
  std::size_t top = 0;
  storage::KeyRange range;
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
    storage::KeyBound lower{std::move(*pk), std::nullopt, true};
    const std::string* next_rk = query.Find("NextRowKey");
    if (next_rk != nullptr && !next_rk->empty()) {
      auto rk = DecodeContinuationKey(*next_rk);
      if (!rk) return tl::unexpected(rk.error());
      lower.row_key = std::move(*rk);
    }
    options.range.lower = std::move(lower);
  }
  return options;
}

Result<storage::TableInfo> FindTableForRead(storage::ReadView& view, const RequestContext& ctx) {
  auto table = view.FindTable(ctx.route.account, ctx.route.table);
  if (!table) return tl::unexpected(table.error());
  if (!table->has_value()) return Fail(ErrorCode::kTableNotFound);
  return std::move(**table);
}

}  // namespace

std::optional<odata::ValueView> EntitySource::Get(std::string_view name) const {
  if (auto system =
          SystemProperty(name, entity_.partition_key, entity_.row_key, entity_.timestamp)) {
    return system;
  }
  const Property* property = entity_.Find(name);
  if (property == nullptr) return std::nullopt;
  return ViewOf(property->value);
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
  auto view = ctx.store.Read();
  if (!view) return tl::unexpected(view.error());
  auto table = FindTableForRead(**view, ctx);
  if (!table) return tl::unexpected(table.error());

  std::vector<Entity> page;
  page.reserve(std::min<std::size_t>(options->top, 128));
  std::optional<std::pair<std::string, std::string>> next;
  std::size_t scanned = 0;
  const auto deadline = std::chrono::steady_clock::now() + kScanBudget;
  auto visited = (*view)->ScanEntities(*table, options->range, [&](const storage::EntityView& e) {
    // Azure: spec §6.5 — stop when the page is full or the budget is spent; the continuation
    // is the first entity not examined.
    const bool out_of_budget =
        ++scanned % kBudgetStride == 0 && std::chrono::steady_clock::now() > deadline;
    if (page.size() == options->top || out_of_budget) {
      next.emplace(std::string(e.partition_key()), std::string(e.row_key()));
      return false;
    }
    if (options->filter && !options->filter->Matches(ViewSource(e))) return true;
    page.push_back(e.Decode());
    return true;
  });
  if (!visited) return tl::unexpected(visited.error());
  view->reset();  // end the snapshot before rendering

  Outcome outcome;
  Response& response = outcome.response;
  response.body = RenderEntityFeed(page, ctx.metadata,
                                   EntityLocation{ctx.base_url, ctx.route.account, table->name},
                                   options->select);
  response.Set("Content-Type", std::string(JsonContentType(ctx.metadata)));
  if (next) {
    response.Set("x-ms-continuation-NextPartitionKey", EncodeContinuationKey(next->first));
    response.Set("x-ms-continuation-NextRowKey", EncodeContinuationKey(next->second));
  }
  return outcome;
}

Result<Outcome> HandleGetEntity(const RequestContext& ctx) {
  auto filter = ParseFilterParam(ctx.route.query);
  if (!filter) return tl::unexpected(filter.error());
  auto select = ParseSelectParam(ctx.route.query);
  if (!select) return tl::unexpected(select.error());
  auto view = ctx.store.Read();
  if (!view) return tl::unexpected(view.error());
  auto table = FindTableForRead(**view, ctx);
  if (!table) return tl::unexpected(table.error());
  auto entity = (*view)->GetEntity(*table, ctx.route.partition_key, ctx.route.row_key);
  if (!entity) return tl::unexpected(entity.error());
  view->reset();
  if (!entity->has_value() || (*filter && !(*filter)->Matches(EntitySource(**entity)))) {
    return Fail(ErrorCode::kResourceNotFound);
  }
  Outcome outcome;
  Response& response = outcome.response;
  response.body.reserve(256);
  AppendEntityJson(response.body, **entity, ctx.metadata,
                   EntityLocation{ctx.base_url, ctx.route.account, table->name}, *select, true);
  response.Set("Content-Type", std::string(JsonContentType(ctx.metadata)));
  response.Set("ETag", FormatETag((*entity)->timestamp));
  return outcome;
}

}  // namespace malachite::server
