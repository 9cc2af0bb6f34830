#include "server/ops/entity_write.h"

#include <utility>

#include "common/entity_size.h"
#include "common/validation.h"
#include "server/http/url_coding.h"
#include "server/ops/entity_apply.h"

namespace malachite::server {
namespace {

void AppendQuotedKey(std::string& out, std::string_view key) {
  out.push_back('\'');
  if (key.find('\'') == std::string_view::npos) {
    AppendPercentEncoded(out, key);
  } else {
    std::string doubled;
    doubled.reserve(key.size() + 2);
    for (char c : key) {
      doubled.push_back(c);
      if (c == '\'') doubled.push_back('\'');
    }
    AppendPercentEncoded(out, doubled);
  }
  out.push_back('\'');
}

Result<void> DecodeDelete(const Request& request, const Route& route, EntityWrite& write) {
  const auto if_match = request.Find("If-Match");
  // Azure: spec §4.10 — If-Match is mandatory on Delete Entity (`*` = unconditional).
  if (!if_match) return Fail(ErrorCode::kMissingRequiredHeader);
  if (auto syntax = CheckIfMatch(*if_match); !syntax) return tl::unexpected(syntax.error());
  write.op = route.op;
  write.entity.partition_key = route.partition_key;
  write.entity.row_key = route.row_key;
  write.if_match = std::string(*if_match);
  return {};
}

}  // namespace

bool IsEntityWrite(Operation op) { return TraitsOf(op).writes_entity; }

Result<EntityWrite> DecodeEntityWrite(const Request& request, const Route& route) {
  EntityWrite write;
  if (auto ok = DecodeEntityWrite(request, route, write); !ok) return tl::unexpected(ok.error());
  return write;
}

Result<void> DecodeEntityWrite(const Request& request, const Route& route, EntityWrite& write) {
  if (route.op == Operation::kDeleteEntity) return DecodeDelete(request, route, write);
  auto parsed = ParseEntityJson(request.body);
  if (!parsed) return tl::unexpected(parsed.error());
  write.op = route.op;
  if (route.op == Operation::kInsertEntity) {
    // Azure: spec §4.5 — Insert takes both keys from the body.
    if (!parsed->has_partition_key || !parsed->has_row_key) {
      return Fail(ErrorCode::kPropertiesNeedValue);
    }
    write.prefer = ParsePrefer(request);
  } else {
    // Azure: spec §3 — keys are immutable and come from the URL; body keys are ignored.
    parsed->entity.partition_key = route.partition_key;
    parsed->entity.row_key = route.row_key;
  }
  if (auto valid = ValidateEntity(parsed->entity); !valid) return tl::unexpected(valid.error());
  write.entity = std::move(parsed->entity);
  if (route.op == Operation::kUpdateEntity || route.op == Operation::kMergeEntity) {
    // The router chose Update/Merge because If-Match is present (spec §1.4).
    write.if_match = std::string(request.Find("If-Match").value_or(std::string_view()));
    if (auto syntax = CheckIfMatch(write.if_match); !syntax) return tl::unexpected(syntax.error());
  }
  return {};
}

Result<storage::TableInfo> FindTableForWrite(storage::WriteContext& write, std::string_view account,
                                             std::string_view name) {
  auto found = write.FindTable(account, name);
  if (!found) return tl::unexpected(found.error());
  if (!found->has_value()) return Fail(ErrorCode::kTableNotFound);
  return std::move(**found);
}

Result<void> ApplyEntityWrite(storage::WriteContext& context, const storage::TableInfo& table,
                              EntityWrite& write) {
  Result<DateTime> applied;
  switch (write.op) {
    case Operation::kInsertEntity:
      applied = ApplyInsert(context, table, write.entity);
      break;
    case Operation::kUpdateEntity:
      applied = ApplyUpdate(context, table, write.entity, write.if_match);
      break;
    case Operation::kMergeEntity:
      applied = ApplyMerge(context, table, write.entity, write.if_match);
      break;
    case Operation::kInsertOrReplaceEntity:
      applied = ApplyInsertOrReplace(context, table, write.entity);
      break;
    case Operation::kInsertOrMergeEntity:
      applied = ApplyInsertOrMerge(context, table, write.entity);
      break;
    case Operation::kDeleteEntity:
      return ApplyDelete(context, table, write.entity.partition_key, write.entity.row_key,
                         write.if_match);
    default:
      return Fail(ErrorCode::kInternalError, {}, "ApplyEntityWrite: not an entity write");
  }
  if (!applied) return tl::unexpected(applied.error());
  return {};
}

WriteStats StatsOf(const EntityWrite& write, std::size_t body_bytes) {
  // A billable size is under 5 times the JSON that carries the entity (strings count 2 bytes a
  // UTF-16 unit plus 4, other values at most 16, and each takes at least `"n":0,` in JSON), so
  // a body under 64 KiB holds entities under 320 KiB: far from the advisor's 80% of 1 MiB.
  constexpr std::size_t kSizedBody = 64 * 1024;
  if (write.op == Operation::kDeleteEntity) return {};
  WriteStats stats{0, static_cast<std::uint32_t>(write.entity.properties.size())};
  if (body_bytes >= kSizedBody) {
    stats.largest_entity_bytes = static_cast<std::uint32_t>(BillableEntitySize(write.entity));
  }
  return stats;
}

namespace {

// The ETag and Location an answer is given, kept per thread: rendering is synchronous and an
// answer copies what it is given, so the strings are reused from one write to the next.
struct HeaderScratch {
  std::string etag;
  std::string location;
};

HeaderScratch& Scratch() {
  thread_local HeaderScratch scratch;
  return scratch;
}

}  // namespace

void RenderEntityWrite(const EntityWrite& write, const EntityLocation& where, MetadataLevel level,
                       WriteAnswer& answer) {
  const bool insert = write.op == Operation::kInsertEntity;
  answer.Status(insert && write.prefer != PreferReturn::kNoContent ? 201 : 204);
  if (write.op == Operation::kDeleteEntity) return;
  const Entity& entity = write.entity;
  HeaderScratch& scratch = Scratch();
  std::string& etag = scratch.etag;
  etag.clear();
  AppendETag(etag, entity.timestamp);
  if (!insert) {
    answer.Header("ETag", etag);
    return;
  }
  const std::string_view applied = PreferenceAppliedValue(write.prefer);
  if (!applied.empty()) answer.Header("Preference-Applied", applied);
  answer.Header("ETag", etag);
  std::string& location = scratch.location;
  location.assign(where.base_url).append(1, '/');
  AppendEntityUrlPath(location, where.table, entity.partition_key, entity.row_key);
  answer.Header("Location", location);
  if (write.prefer == PreferReturn::kNoContent) {
    answer.Header("DataServiceId", location);
    return;
  }
  std::string& body = answer.Body();
  body.reserve(body.size() + 256);
  AppendEntityJson(body, entity, level, where, Selection{}, true);
  answer.Header("Content-Type", JsonContentType(level));
}

void RenderEntityWrite(const EntityWrite& write, const EntityLocation& where, MetadataLevel level,
                       Response& response) {
  class ResponseAnswer final : public WriteAnswer {
   public:
    explicit ResponseAnswer(Response& response) : response_(response) {}
    void Status(int status) override { response_.status = status; }
    void Header(std::string_view name, std::string_view value) override {
      response_.Set(name, std::string(value));
    }
    std::string& Body() override { return response_.body; }

   private:
    Response& response_;
  };
  response.headers.reserve(response.headers.size() + 5);
  ResponseAnswer answer(response);
  RenderEntityWrite(write, where, level, answer);
}

std::string EntityPath(std::string_view table, std::string_view pk, std::string_view rk) {
  std::string out;
  out.reserve(table.size() + pk.size() + rk.size() + 32);
  AppendEntityUrlPath(out, table, pk, rk);
  return out;
}

void AppendEntityUrlPath(std::string& out, std::string_view table, std::string_view pk,
                         std::string_view rk) {
  out.append(table);
  out.append("(PartitionKey=");
  AppendQuotedKey(out, pk);
  out.append(",RowKey=");
  AppendQuotedKey(out, rk);
  out.push_back(')');
}

}  // namespace malachite::server
