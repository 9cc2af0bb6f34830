// Entity JSON out (spec §5.1): rendering Entities at each metadata level, one object or a feed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/entity.h"
#include "server/http/metadata.h"
#include "server/wire/select.h"

namespace malachite::server {

// Where the entity lives, for odata.metadata / odata.id / odata.editLink / odata.type.
struct EntityLocation {
  std::string_view base_url;  // "http://host:port/<account>"
  std::string_view account;
  std::string_view table;  // as stored
};

// Appends one entity object to `out` at `level` (spec §5.1 order and annotations):
// odata.metadata only when `with_metadata_url` (single-entity responses, "#<t>/@Element"),
// odata.etag at minimal and full, Int64/DateTime/Guid/Binary/non-finite Double annotated,
// integral Doubles written with ".0". With a partial selection, selected properties the entity
// lacks are written as null and system properties only if selected.
void AppendEntityJson(std::string& out, const Entity& entity, MetadataLevel level,
                      const EntityLocation& where, const Selection& select, bool with_metadata_url);

// Appends the entity's data as one JSON object, without OData metadata: PartitionKey, RowKey,
// Timestamp (with its Edm.DateTime annotation) when `with_timestamp`, then every property in
// order, annotated exactly as at minimal metadata (so ParseEntityJson reads back the same types
// and values). The form of export lines and of request bodies the tools send.
void AppendEntityDataJson(std::string& out, const Entity& entity, bool with_timestamp);

// The whole body of a Query Entities page: {"odata.metadata":"<base>/$metadata#<t>","value":[...]}.
std::string RenderEntityFeed(const std::vector<Entity>& entities, MetadataLevel level,
                             const EntityLocation& where, const Selection& select);

}  // namespace malachite::server
