// AppendEntityJson / RenderEntityFeed: entities as JSON at each metadata level (spec §5.1, §5.3),
// with $select applied.
#include "server/wire/entity_json_render.h"

#include <algorithm>
#include <cmath>

#include "common/datetime.h"
#include "common/encoding.h"
#include "server/wire/json_writer.h"

namespace malachite::server {
namespace {

void AppendTypeAnnotation(JsonMembers& m, std::string_view name, EdmType type) {
  m.AnnotationKey(name);
  AppendJsonString(m.out(), EdmTypeName(type));
}

// One custom property: `annotate` adds `@odata.type` where spec §5.1 wants it.
void AppendProperty(JsonMembers& m, const Property& p, bool annotate) {
  const EdmValue& v = p.value;
  std::string& out = m.out();
  const bool finite_double = v.type == EdmType::kDouble && std::isfinite(v.number);
  const bool inferable = v.type == EdmType::kString || v.type == EdmType::kInt32 ||
                         v.type == EdmType::kBoolean || finite_double;
  if (annotate && !inferable) AppendTypeAnnotation(m, p.name, v.type);
  m.Key(p.name);
  switch (v.type) {
    case EdmType::kString:
      AppendJsonString(out, v.bytes);
      break;
    case EdmType::kInt32:
      AppendJsonInt(out, v.integer);
      break;
    case EdmType::kInt64:
      out.push_back('"');
      AppendJsonInt(out, v.integer);
      out.push_back('"');
      break;
    case EdmType::kDouble:
      if (finite_double) {
        AppendJsonDouble(out, v.number);
      } else {
        out.append(std::isnan(v.number) ? "\"NaN\""
                   : v.number > 0       ? "\"Infinity\""
                                        : "\"-Infinity\"");
      }
      break;
    case EdmType::kBoolean:
      out.append(v.integer != 0 ? "true" : "false");
      break;
    case EdmType::kDateTime:
      out.push_back('"');
      AppendIso8601(out, v.AsDateTime());
      out.push_back('"');
      break;
    case EdmType::kGuid:
      AppendJsonString(out, FormatGuid(v.bytes));
      break;
    case EdmType::kBinary:
      AppendJsonString(out, Base64Encode(v.bytes));
      break;
  }
}

bool Selected(const Selection& select, std::string_view name) {
  return select.all ||
         std::find(select.names.begin(), select.names.end(), name) != select.names.end();
}

bool IsSystemName(std::string_view name) {
  return name == "PartitionKey" || name == "RowKey" || name == "Timestamp";
}

void AppendMetadataUrl(JsonMembers& m, const EntityLocation& where, std::string_view suffix) {
  m.Key("odata.metadata");
  std::string& out = m.out();
  out.push_back('"');
  AppendJsonEscaped(out, where.base_url);
  out.append("/$metadata#");
  AppendJsonEscaped(out, where.table);
  out.append(suffix);
  out.push_back('"');
}

// odata.type, odata.id, odata.etag and odata.editLink in the order of spec §5.3.
void AppendEntityAnnotations(JsonMembers& m, const Entity& e, MetadataLevel level,
                             const EntityLocation& where) {
  std::string& out = m.out();
  const bool full = level == MetadataLevel::kFull;
  if (full) {
    m.Key("odata.type");
    out.push_back('"');
    AppendJsonEscaped(out, where.account);
    out.push_back('.');
    AppendJsonEscaped(out, where.table);
    out.push_back('"');
    m.Key("odata.id");
    out.push_back('"');
    AppendJsonEscaped(out, where.base_url);
    out.push_back('/');
    AppendEntityPath(out, where.table, e.partition_key, e.row_key);
    out.push_back('"');
  }
  m.Key("odata.etag");
  AppendETagJson(out, e.timestamp);
  if (full) {
    m.Key("odata.editLink");
    out.push_back('"');
    AppendEntityPath(out, where.table, e.partition_key, e.row_key);
    out.push_back('"');
  }
}

}  // namespace

void AppendEntityJson(std::string& out, const Entity& entity, MetadataLevel level,
                      const EntityLocation& where, const Selection& select,
                      bool with_metadata_url) {
  out.push_back('{');
  JsonMembers m(out);
  const bool annotate = level != MetadataLevel::kNone;
  if (annotate) {
    if (with_metadata_url) AppendMetadataUrl(m, where, "/@Element");
    AppendEntityAnnotations(m, entity, level, where);
  }
  if (Selected(select, "PartitionKey")) m.String("PartitionKey", entity.partition_key);
  if (Selected(select, "RowKey")) m.String("RowKey", entity.row_key);
  if (Selected(select, "Timestamp")) {
    if (level == MetadataLevel::kFull) AppendTypeAnnotation(m, "Timestamp", EdmType::kDateTime);
    m.Key("Timestamp");
    out.push_back('"');
    AppendIso8601(out, entity.timestamp);
    out.push_back('"');
  }
  if (select.all) {
    for (const Property& p : entity.properties) AppendProperty(m, p, annotate);
  } else {
    // Azure: spec §6.4 — selected properties the entity lacks come back as null.
    for (const std::string& name : select.names) {
      if (IsSystemName(name)) continue;
      if (const Property* p = entity.Find(name)) {
        AppendProperty(m, *p, annotate);
      } else {
        m.Key(name);
        out.append("null");
      }
    }
  }
  out.push_back('}');
}

void AppendEntityDataJson(std::string& out, const Entity& entity, bool with_timestamp) {
  out.push_back('{');
  JsonMembers m(out);
  m.String("PartitionKey", entity.partition_key);
  m.String("RowKey", entity.row_key);
  if (with_timestamp) {
    AppendTypeAnnotation(m, "Timestamp", EdmType::kDateTime);
    m.Key("Timestamp");
    out.push_back('"');
    AppendIso8601(out, entity.timestamp);
    out.push_back('"');
  }
  for (const Property& p : entity.properties) AppendProperty(m, p, true);
  out.push_back('}');
}

std::string RenderEntityFeed(const std::vector<Entity>& entities, MetadataLevel level,
                             const EntityLocation& where, const Selection& select) {
  std::string out;
  out.reserve(128 + entities.size() * 256);
  out.push_back('{');
  JsonMembers m(out);
  if (level != MetadataLevel::kNone) AppendMetadataUrl(m, where, "");
  m.Key("value");
  out.push_back('[');
  for (std::size_t i = 0; i < entities.size(); ++i) {
    if (i > 0) out.push_back(',');
    AppendEntityJson(out, entities[i], level, where, select, false);
  }
  out.append("]}");
  return out;
}

}  // namespace malachite::server
