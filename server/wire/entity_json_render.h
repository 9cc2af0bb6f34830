// Entity JSON out (spec §5.1): rendering Entities at each metadata level, one object or a feed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/datetime.h"
#include "common/entity.h"
#include "common/function_ref.h"
#include "common/property_view.h"
#include "server/http/metadata.h"
#include "server/wire/json_buffer.h"
#include "server/wire/select.h"

namespace malachite::server {

// Where the entity lives, for odata.metadata / odata.id / odata.editLink / odata.type.
struct EntityLocation {
  std::string_view base_url;  // "http://host:port/<account>"
  std::string_view account;
  std::string_view table;  // as stored
};

// An entity as the renderer reads it: a decoded Entity, or an entity read in place from its
// stored form. Views live as long as the source.
class EntityJsonSource {
 public:
  virtual ~EntityJsonSource() = default;
  virtual std::string_view partition_key() const = 0;
  virtual std::string_view row_key() const = 0;
  virtual DateTime timestamp() const = 0;
  // Calls visit(name, value) for every custom property, in stored order.
  virtual void ForEachProperty(
      FunctionRef<void(std::string_view, const PropertyView&)> visit) const = 0;
  // The custom property `name` (case-sensitive), or nullopt.
  virtual std::optional<PropertyView> FindProperty(std::string_view name) const = 0;
};

// Appends one entity object to `out` at `level` (spec §5.1 order and annotations):
// odata.metadata only when `with_metadata_url` (single-entity responses, "#<t>/@Element"),
// odata.etag at minimal and full, Int64/DateTime/Guid/Binary/non-finite Double annotated,
// integral Doubles written with ".0". With a partial selection, selected properties the entity
// lacks are written as null and system properties only if selected.
void AppendEntityJson(std::string& out, const EntityJsonSource& entity, MetadataLevel level,
                      const EntityLocation& where, const Selection& select, bool with_metadata_url);
void AppendEntityJson(std::string& out, const Entity& entity, MetadataLevel level,
                      const EntityLocation& where, const Selection& select, bool with_metadata_url);
// The same, formatting the Timestamp with `timestamps` (for a feed: one for all its entities).
void AppendEntityJson(std::string& out, const EntityJsonSource& entity, MetadataLevel level,
                      const EntityLocation& where, const Selection& select, bool with_metadata_url,
                      Iso8601Writer& timestamps);

// Appends the entity's data as one JSON object, without OData metadata: PartitionKey, RowKey,
// Timestamp (with its Edm.DateTime annotation) when `with_timestamp`, then every property in
// order, annotated exactly as at minimal metadata (so ParseEntityJson reads back the same types
// and values). The form of export lines and of request bodies the tools send.
void AppendEntityDataJson(std::string& out, const Entity& entity, bool with_timestamp);

// Builds the whole body of a Query Entities page:
// {"odata.metadata":"<base>/$metadata#<t>","value":[...]}. Keeps references to `where` and
// `select`, which must outlive it.
class EntityFeedWriter {
 public:
  // `expected_entities` sizes the buffer.
  EntityFeedWriter(MetadataLevel level, const EntityLocation& where, const Selection& select,
                   std::size_t expected_entities);
  void Add(const EntityJsonSource& entity);
  // The body; the writer is spent.
  std::string Finish();

 private:
  JsonBuffer out_;
  MetadataLevel level_;
  const EntityLocation& where_;
  const Selection& select_;
  Iso8601Writer timestamps_;
  bool first_ = true;
};

// The feed of `entities` (EntityFeedWriter over decoded entities).
std::string RenderEntityFeed(const std::vector<Entity>& entities, MetadataLevel level,
                             const EntityLocation& where, const Selection& select);

}  // namespace malachite::server
