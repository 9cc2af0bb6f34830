#include "server/ops/table_ops.h"

#include <simdjson.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "common/encoding.h"
#include "common/validation.h"
#include "odata/filter.h"
#include "odata/planner.h"
#include "server/ops/query_log.h"
#include "server/ops/query_ops.h"
#include "server/wire/entity_json_parse.h"
#include "server/wire/entity_json_render.h"
#include "server/wire/json_writer.h"
#include "server/wire/select.h"

namespace malachite::server {
namespace {

// How one table is written: level, URLs and the $select of Query Tables.
struct TableRender {
  MetadataLevel level;
  std::string_view base_url;
  std::string_view account;
  const Selection* select = nullptr;  // nullptr: everything
};

// Azure: spec §4.1/§4.3 — {"odata.type":"<acct>.Tables","odata.id":"<base>/Tables('t')",
// "odata.editLink":"Tables('t')","TableName":"t"} at full metadata; metadata-url first for a
// single table. Table names are alphanumeric, so no URL escaping is needed.
void AppendTableJson(std::string& out, std::string_view name, const TableRender& how,
                     bool with_metadata_url) {
  out.push_back('{');
  bool first = true;
  auto member = [&](std::string_view key) {
    if (!first) out.push_back(',');
    first = false;
    AppendJsonString(out, key);
    out.push_back(':');
  };
  if (with_metadata_url && how.level != MetadataLevel::kNone) {
    member("odata.metadata");
    AppendJsonString(out, std::string(how.base_url) + "/$metadata#Tables/@Element");
  }
  if (how.level == MetadataLevel::kFull) {
    member("odata.type");
    AppendJsonString(out, std::string(how.account) + ".Tables");
    const std::string edit_link = "Tables('" + std::string(name) + "')";
    member("odata.id");
    AppendJsonString(out, std::string(how.base_url) + "/" + edit_link);
    member("odata.editLink");
    AppendJsonString(out, edit_link);
  }
  if (how.select == nullptr || how.select->all) {
    member("TableName");
    AppendJsonString(out, name);
  } else {
    // Azure: spec §6.4 — selected names the row lacks come back as null.
    for (const std::string& selected : how.select->names) {
      member(selected);
      if (selected == "TableName") {
        AppendJsonString(out, name);
      } else {
        out.append("null");
      }
    }
  }
  out.push_back('}');
}

// Exposes a table row to $filter: the only property is TableName (spec §4.1).
class TableSource final : public PropertySource {
 public:
  explicit TableSource(std::string_view name) : name_(name) {}
  std::optional<PropertyView> Get(std::string_view property) const override {
    if (property != "TableName") return std::nullopt;
    PropertyView value;
    value.type = EdmType::kString;
    value.bytes = name_;
    return value;
  }

 private:
  std::string_view name_;
};

// Azure: spec §4.3 — the body is {"TableName":"x"} (other members, e.g. odata.*, ignored).
Result<std::string> ParseTableName(std::string_view body) {
  simdjson::dom::parser parser;
  simdjson::dom::object object;
  if (parser.parse(body.data(), body.size()).get_object().get(object)) {
    return Fail(ErrorCode::kInvalidInput);
  }
  for (auto field : object) {
    if (field.key != "TableName") continue;
    if (field.value.is_null()) break;
    std::string_view name;
    if (field.value.get_string().get(name)) return Fail(ErrorCode::kInvalidInput);
    return std::string(name);
  }
  return Fail(ErrorCode::kPropertiesNeedValue);
}

// True when `name` lies in one of the plan's TableName ranges.
bool InPlan(const odata::ScanPlan& plan, std::string_view name) {
  for (const KeyRange& range : plan.ranges()) {
    if (RangeContains(range, name, "")) return true;
  }
  return false;
}

// Runs `visit` over the tables `plan` can match, in catalog order from `from_lower` on.
Result<void> VisitPlannedTables(storage::ReadView& view, std::string_view account,
                                std::string_view from_lower, const odata::ScanPlan& plan,
                                const std::function<bool(const storage::TableInfo&)>& visit) {
  if (plan.kind() == odata::PlanKind::kEmpty) return {};
  if (plan.kind() == odata::PlanKind::kPartition) {
    // `TableName eq 'x'`: one catalog lookup (case-insensitive; the caller checks the exact name).
    auto table = view.FindTable(account, plan.ranges().front().lower->partition_key);
    if (!table) return tl::unexpected(table.error());
    if (*table && AsciiLower((*table)->name) >= from_lower) visit(**table);
    return {};
  }
  // Emulator: the catalog is in case-insensitive order and filters compare case-sensitively, so
  // other TableName ranges do not map to one catalog range: every table is examined.
  return view.ScanTables(account, from_lower, visit);
}

void SetJsonBody(Response& response, int status, std::string body, MetadataLevel level) {
  response.status = status;
  response.body = std::move(body);
  response.Set("Content-Type", std::string(JsonContentType(level)));
}

}  // namespace

Result<Outcome> HandleCreateTable(const RequestContext& ctx) {
  auto name = ParseTableName(ctx.request.body);
  if (!name) return tl::unexpected(name.error());
  if (auto valid = ValidateTableName(*name); !valid) return tl::unexpected(valid.error());

  struct State {
    std::string account;
    std::string name;
    std::string base_url;
    MetadataLevel level;
    PreferReturn prefer;
  };
  auto state = std::make_shared<State>(State{ctx.route.account, std::move(*name), ctx.base_url,
                                             ctx.metadata, ParsePrefer(ctx.request)});
  Outcome outcome;
  outcome.write = [state](storage::WriteContext& write) -> Result<void> {
    auto created = write.CreateTable(state->account, state->name);
    if (!created) return tl::unexpected(created.error());
    if (!created->has_value()) return Fail(ErrorCode::kTableAlreadyExists);
    state->name = (*created)->name;
    return {};
  };
  outcome.finish = [state](Response& response, Result<void> written) -> Result<void> {
    const std::string_view applied = PreferenceAppliedValue(state->prefer);
    if (!applied.empty()) response.Set("Preference-Applied", std::string(applied));
    if (!written) return written;
    response.Set("Location", state->base_url + "/Tables('" + state->name + "')");
    if (state->prefer == PreferReturn::kNoContent) {
      response.status = 204;
      return {};
    }
    std::string body;
    AppendTableJson(body, state->name, {state->level, state->base_url, state->account}, true);
    SetJsonBody(response, 201, std::move(body), state->level);
    return {};
  };
  return outcome;
}

Result<Outcome> HandleDeleteTable(const RequestContext& ctx) {
  struct State {
    std::string account;
    std::string name;
  };
  auto state = std::make_shared<State>(State{ctx.route.account, ctx.route.table});
  Outcome outcome;
  outcome.write = [state](storage::WriteContext& write) -> Result<void> {
    auto deleted = write.DeleteTable(state->account, state->name);
    if (!deleted) return tl::unexpected(deleted.error());
    if (!*deleted) return Fail(ErrorCode::kTableNotFound);
    return {};
  };
  outcome.finish = [](Response& response, Result<void> written) -> Result<void> {
    if (!written) return written;
    response.status = 204;
    return {};
  };
  return outcome;
}

namespace {

// Get Table's read.
Result<void> ReadTable(const RequestContext& ctx, Outcome& outcome) {
  auto view = ctx.store.Read();
  if (!view) return tl::unexpected(view.error());
  auto table = (*view)->FindTable(ctx.route.account, ctx.route.table);
  if (!table) return tl::unexpected(table.error());
  if (!table->has_value()) return Fail(ErrorCode::kTableNotFound);
  std::string body;
  AppendTableJson(body, (*table)->name, {ctx.metadata, ctx.base_url, ctx.route.account}, true);
  SetJsonBody(outcome.response, 200, std::move(body), ctx.metadata);
  return {};
}

}  // namespace

Result<Outcome> HandleGetTable(const RequestContext& /*ctx*/) { return ReadOnly(ReadTable); }

namespace {

// Query Tables' read: its options are parsed here (it is admitted on its route alone).
Result<void> ReadTablesPage(const RequestContext& ctx, Outcome& outcome) {
  auto filter = ParseFilterParam(ctx.route.query);
  if (!filter) return tl::unexpected(filter.error());
  auto top = ParseTop(ctx.route.query);
  if (!top) return tl::unexpected(top.error());
  auto select = ParseSelectParam(ctx.route.query);
  if (!select) return tl::unexpected(select.error());
  std::string from_lower;
  if (const std::string* next = ctx.route.query.Find("NextTableName"))
    from_lower = AsciiLower(*next);

  std::string body;
  body.reserve(256);
  body.push_back('{');
  if (ctx.metadata != MetadataLevel::kNone) {
    body.append("\"odata.metadata\":");
    AppendJsonString(body, ctx.base_url + "/$metadata#Tables");
    body.push_back(',');
  }
  body.append("\"value\":[");
  const TableRender how{ctx.metadata, ctx.base_url, ctx.route.account, &*select};
  // The plan points into *filter, which stays in place until the end of this call.
  const odata::ScanPlan plan = odata::ScanPlan::MakeForTables(*filter ? &**filter : nullptr);
  QueryStats stats;
  std::optional<std::string> next_name;
  auto view = ctx.store.Read();
  if (!view) return tl::unexpected(view.error());
  // Visits one table in catalog order; false to stop.
  auto visit = [&](const storage::TableInfo& info) {
    // Azure: spec §6.5 — the continuation names the first table not returned.
    if (stats.returned == *top) {
      next_name = info.name;
      return false;
    }
    ++stats.scanned;
    if (!InPlan(plan, info.name) || !plan.Matches(TableSource(info.name))) return true;
    if (stats.returned++ > 0) body.push_back(',');
    AppendTableJson(body, info.name, how, false);
    return true;
  };
  // Azure: spec §6.5 — $top=0 answers an empty page; Emulator: with no continuation.
  if (*top > 0) {
    auto visited = VisitPlannedTables(**view, ctx.route.account, from_lower, plan, visit);
    if (!visited) return tl::unexpected(visited.error());
  }
  body.append("]}");

  outcome.query_stats = stats;
  SetJsonBody(outcome.response, 200, std::move(body), ctx.metadata);
  if (next_name) outcome.response.Set("x-ms-continuation-NextTableName", std::move(*next_name));
  if (ctx.explain) {
    outcome.response.Set(std::string(kQueryPlanHeader), ExplainQuery(plan, stats));
  }
  return {};
}

}  // namespace

Result<Outcome> HandleQueryTables(const RequestContext& /*ctx*/) {
  return ReadOnly(ReadTablesPage);
}

}  // namespace malachite::server
