#include "cli/entity_line.h"

#include <simdjson.h>

#include "common/datetime.h"
#include "common/validation.h"
#include "server/wire/entity_json_parse.h"
#include "server/wire/entity_json_render.h"

namespace malachite::cli {
namespace {

// The line's "Timestamp" member (ParseEntityJson ignores it, as the service does).
Result<DateTime> LineTimestamp(std::string_view line) {
  thread_local simdjson::dom::parser parser;
  simdjson::padded_string padded(line);
  std::string_view text;
  if (parser.parse(padded)["Timestamp"].get(text) != simdjson::SUCCESS) {
    return Fail(ErrorCode::kPropertiesNeedValue, "The line has no Timestamp to keep.");
  }
  std::optional<DateTime> t = ParseIso8601(text);
  if (!t) return Fail(ErrorCode::kInvalidInput, "The Timestamp is not an ISO 8601 date.");
  return *t;
}

}  // namespace

void AppendEntityLine(std::string& out, const Entity& entity, bool with_timestamp) {
  server::AppendEntityDataJson(out, entity, with_timestamp);
}

Result<Entity> ParseEntityLine(std::string_view line, bool keep_timestamp) {
  auto parsed = server::ParseEntityJson(line);
  if (!parsed) return tl::unexpected(std::move(parsed.error()));
  // Azure: spec §4.5 — an insert names both keys in its body.
  if (!parsed->has_partition_key || !parsed->has_row_key) {
    return Fail(ErrorCode::kPropertiesNeedValue);
  }
  if (auto ok = ValidateEntity(parsed->entity); !ok) return tl::unexpected(ok.error());
  if (keep_timestamp) {
    auto t = LineTimestamp(line);
    if (!t) return tl::unexpected(t.error());
    parsed->entity.timestamp = *t;
  }
  return std::move(parsed->entity);
}

}  // namespace malachite::cli
