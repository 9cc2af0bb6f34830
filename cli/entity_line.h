// One entity per line (JSON Lines): the export format and the main import format. A line is the
// entity's JSON exactly as the service renders it at minimal metadata, without odata.etag
// (AppendEntityDataJson): PartitionKey, RowKey, optionally Timestamp, then the properties in
// their stored order, with @odata.type where the type cannot be inferred (Int64, DateTime, Guid,
// Binary, NaN/Infinity). Every EDM value survives exactly: Int64 as a digit string, DateTime to
// the 100 ns tick, Doubles in shortest round-trip form (-0.0 included).
#pragma once

#include <string>
#include <string_view>

#include "common/entity.h"
#include "common/error.h"

namespace malachite::cli {

// Appends the line of `entity` (without the '\n'). With `with_timestamp` the Timestamp is
// written too (import ignores it unless told to keep timestamps).
void AppendEntityLine(std::string& out, const Entity& entity, bool with_timestamp);

// Parses one line with the service's entity parser and validation (spec §5.2, §9), so a line
// is refused with the error an Insert Entity of that body would get: kInvalidInput (not JSON,
// bad value), kPropertiesNeedValue (no PartitionKey or RowKey), kOutOfRangeInput,
// kPropertyValueTooLarge, ... With `keep_timestamp` the line's Timestamp (required then:
// kPropertiesNeedValue without it) becomes entity.timestamp.
Result<Entity> ParseEntityLine(std::string_view line, bool keep_timestamp);

}  // namespace malachite::cli
