// Entity JSON in (spec §5): parsing request bodies with simdjson into validated Entities.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/entity.h"
#include "common/error.h"

namespace malachite::server {

// An entity body as the client sent it. Keys are optional in the body (they come from the URL
// on update/merge/upsert); `has_*` says whether the body carried them.
struct ParsedEntity {
  Entity entity;  // timestamp unset; null-valued properties dropped
  bool has_partition_key = false;
  bool has_row_key = false;
};

// Parses a JSON object body: `@odata.type` annotations (on keys too), type inference for
// unannotated values, `odata.*` members and `Timestamp` ignored, null values dropped.
// Validates names and values (spec §5.2, §9): kInvalidInput (malformed JSON, bad annotation,
// unparsable value, object/array value, key not a string), kDuplicatePropertiesSpecified,
// kOutOfRangeInput (DateTime range, overflow of an annotated Int32/Int64), plus
// ValidatePropertyName errors. Size limits and key rules are checked by ValidateEntity, not here.
Result<ParsedEntity> ParseEntityJson(std::string_view body);

}  // namespace malachite::server
