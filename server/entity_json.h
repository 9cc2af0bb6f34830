// Entity JSON in and out (spec §5): parsing request bodies with simdjson into validated Entities,
// and rendering Entities at each metadata level. Defined in entity_json_parse.cc (ParseEntityJson),
// entity_json_render.cc (AppendEntityJson, RenderEntityFeed) and select.cc (ParseSelect).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/entity.h"
#include "common/error.h"
#include "server/handler.h"

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

// Which properties to emit ($select); empty `names` with `all` true means every property.
struct Selection {
  bool all = true;
  std::vector<std::string> names;  // as given in $select, in that order
};

// Where the entity lives, for odata.metadata / odata.id / odata.editLink / odata.type.
struct EntityLocation {
  std::string_view base_url;  // "http://host:port/<account>"
  std::string_view account;
  std::string_view table;     // as stored
};

// Appends one entity object to `out` at `level` (spec §5.1 order and annotations):
// odata.metadata only when `with_metadata_url` (single-entity responses, "#<t>/@Element"),
// odata.etag at minimal and full, Int64/DateTime/Guid/Binary/non-finite Double annotated,
// integral Doubles written with ".0". With a partial selection, selected properties the entity
// lacks are written as null and system properties only if selected.
void AppendEntityJson(std::string& out, const Entity& entity, MetadataLevel level,
                      const EntityLocation& where, const Selection& select,
                      bool with_metadata_url);

// The whole body of a Query Entities page: {"odata.metadata":"<base>/$metadata#<t>","value":[...]}.
std::string RenderEntityFeed(const std::vector<Entity>& entities, MetadataLevel level,
                             const EntityLocation& where, const Selection& select);

// Parses a $select value ("A,B , C") into a Selection; repeated names are kept once; empty text
// or "*" selects everything. kInvalidInput for an empty item ("A,,B") or more than 255 names.
Result<Selection> ParseSelect(std::string_view text);

// Appends `text` as a JSON string literal (quotes and escapes included). Defined in
// json_writer.cc, which has the other JSON/OData writing helpers.
void AppendJsonString(std::string& out, std::string_view text);

}  // namespace malachite::server
