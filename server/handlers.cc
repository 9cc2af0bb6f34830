// Dispatch: the one entry point from the pipeline into the operation handlers, plus the small
// helpers every handler file shares.
#include <charconv>

#include "common/limits.h"
#include "server/acl_handlers.h"
#include "server/batch_handler.h"
#include "server/entity_handlers.h"
#include "server/handler.h"
#include "server/query_handlers.h"
#include "server/service_handlers.h"
#include "server/table_handlers.h"

namespace malachite::server {

Result<Outcome> Dispatch(const RequestContext& ctx) {
  switch (ctx.route.op) {
    case Operation::kQueryTables:
      return HandleQueryTables(ctx);
    case Operation::kGetTable:
      return HandleGetTable(ctx);
    case Operation::kCreateTable:
      return HandleCreateTable(ctx);
    case Operation::kDeleteTable:
      return HandleDeleteTable(ctx);
    case Operation::kQueryEntities:
      return HandleQueryEntities(ctx);
    case Operation::kGetEntity:
      return HandleGetEntity(ctx);
    case Operation::kInsertEntity:
      return HandleInsertEntity(ctx);
    case Operation::kUpdateEntity:
    case Operation::kMergeEntity:
    case Operation::kInsertOrReplaceEntity:
    case Operation::kInsertOrMergeEntity:
      return HandleWriteEntity(ctx);
    case Operation::kDeleteEntity:
      return HandleDeleteEntity(ctx);
    case Operation::kBatch:
      return HandleBatch(ctx);
    case Operation::kGetTableAcl:
      return HandleGetTableAcl(ctx);
    case Operation::kSetTableAcl:
      return HandleSetTableAcl(ctx);
    case Operation::kGetServiceProperties:
      return HandleGetServiceProperties(ctx);
    case Operation::kSetServiceProperties:
      return HandleSetServiceProperties(ctx);
    case Operation::kGetServiceStats:
      return HandleGetServiceStats(ctx);
    case Operation::kPreflight:
      return HandlePreflight(ctx);
    default:
      break;
  }
  return Fail(ErrorCode::kNotImplemented);
}

std::string_view JsonContentType(MetadataLevel level) {
  switch (level) {
    case MetadataLevel::kNone:
      return "application/json;odata=nometadata;streaming=true;charset=utf-8";
    case MetadataLevel::kFull:
      return "application/json;odata=fullmetadata;streaming=true;charset=utf-8";
    case MetadataLevel::kMinimal:
      break;
  }
  return "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";
}

PreferReturn ParsePrefer(const Request& request) {
  const auto prefer = request.Find("Prefer");
  if (!prefer) return PreferReturn::kNone;
  // Azure: spec §4.5 — Prefer may list several preferences separated by ','.
  if (prefer->find("return-no-content") != std::string_view::npos) return PreferReturn::kNoContent;
  if (prefer->find("return-content") != std::string_view::npos) return PreferReturn::kContent;
  return PreferReturn::kNone;
}

std::string_view PreferenceAppliedValue(PreferReturn prefer) {
  switch (prefer) {
    case PreferReturn::kContent:
      return "return-content";
    case PreferReturn::kNoContent:
      return "return-no-content";
    case PreferReturn::kNone:
      break;
  }
  return {};
}

Result<std::size_t> ParseTop(const QueryParams& query) {
  const std::string* text = query.Find("$top");
  if (text == nullptr) return limits::kMaxPageSize;
  long long value = 0;
  const char* end = text->data() + text->size();
  const auto [ptr, ec] = std::from_chars(text->data(), end, value);
  // Azure: spec §6.5 — Take(N) with N < 1 or N > 1000, or a non-integer, is InvalidInput.
  if (ec != std::errc() || ptr != end || text->empty() || value < 1 ||
      value > static_cast<long long>(limits::kMaxPageSize)) {
    return Fail(ErrorCode::kInvalidInput);
  }
  return static_cast<std::size_t>(value);
}

}  // namespace malachite::server
