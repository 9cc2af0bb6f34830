// AppendEntityJson / RenderEntityFeed: entities as JSON at each metadata level (spec §5.1, §5.3),
// with $select applied.
#include "server/wire/entity_json_render.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "common/datetime.h"
#include "common/encoding.h"
#include "common/property_view.h"
#include "server/wire/json_writer.h"

namespace malachite::server {
namespace {

template <class Out>
void AppendTypeAnnotation(BasicJsonMembers<Out>& m, std::string_view name, EdmType type) {
  m.AnnotationKey(name);
  AppendJsonString(m.out(), EdmTypeName(type));
}

// A property of a type a client infers from its JSON (string, Int32, Boolean, finite Double: no
// `@odata.type` at any level, spec §5.1), written as one member (json_writer.h). False, with
// nothing written, for the other types.
template <class Out>
bool AppendInferableProperty(BasicJsonMembers<Out>& m, std::string_view name,
                             const PropertyView& v) {
  char number[kJsonNumberMaxChars];
  switch (v.type) {
    case EdmType::kString:
      m.String(name, v.bytes);
      return true;
    case EdmType::kInt32:
      m.Raw(name, std::string_view(number, FormatJsonInt(v.integer, number)));
      return true;
    case EdmType::kBoolean:
      m.Raw(name, v.integer != 0 ? std::string_view("true") : std::string_view("false"));
      return true;
    case EdmType::kDouble:
      if (!std::isfinite(v.number)) return false;
      m.Raw(name, std::string_view(number, FormatJsonDouble(v.number, number)));
      return true;
    default:
      return false;
  }
}

// One custom property: `annotate` adds `@odata.type` where spec §5.1 wants it.
template <class Out>
void AppendProperty(BasicJsonMembers<Out>& m, std::string_view name, const PropertyView& v,
                    bool annotate) {
  if (AppendInferableProperty(m, name, v)) return;
  Out& out = m.out();
  if (annotate) AppendTypeAnnotation(m, name, v.type);
  m.Key(name);
  switch (v.type) {
    case EdmType::kString:
    case EdmType::kInt32:
    case EdmType::kBoolean:
      break;  // inferable: written above
    case EdmType::kInt64:
      out.push_back('"');
      AppendJsonInt(out, v.integer);
      out.push_back('"');
      break;
    case EdmType::kDouble:  // NaN or an infinity
      out.append(std::isnan(v.number) ? std::string_view("\"NaN\"")
                 : v.number > 0       ? std::string_view("\"Infinity\"")
                                      : std::string_view("\"-Infinity\""));
      break;
    case EdmType::kDateTime: {
      char iso[kIso8601MaxChars + 2];
      iso[0] = '"';
      const std::size_t n = PutIso8601(iso + 1, DateTime{v.integer});
      iso[n + 1] = '"';
      out.append(iso, n + 2);
      break;
    }
    case EdmType::kGuid:
      AppendJsonString(out, FormatGuid(v.bytes));
      break;
    case EdmType::kBinary:
      AppendJsonString(out, Base64Encode(v.bytes));
      break;
  }
}

// A decoded Entity as the renderer reads it.
class DecodedEntitySource final : public EntityJsonSource {
 public:
  explicit DecodedEntitySource(const Entity& entity) : entity_(entity) {}
  std::string_view partition_key() const override { return entity_.partition_key; }
  std::string_view row_key() const override { return entity_.row_key; }
  DateTime timestamp() const override { return entity_.timestamp; }
  void ForEachProperty(
      FunctionRef<void(std::string_view, const PropertyView&)> visit) const override {
    for (const Property& p : entity_.properties) visit(p.name, View(p.value));
  }
  std::optional<PropertyView> FindProperty(std::string_view name) const override {
    const Property* p = entity_.Find(name);
    if (p == nullptr) return std::nullopt;
    return View(p->value);
  }

 private:
  static PropertyView View(const EdmValue& v) {
    return PropertyView{v.type, v.integer, v.number, v.bytes};
  }
  const Entity& entity_;
};

bool Listed(const Selection& select, std::string_view name) {
  return std::find(select.names.begin(), select.names.end(), name) != select.names.end();
}

// Inlined: every entity of a feed asks three times, and nearly always everything is selected.
[[gnu::always_inline]] inline bool Selected(const Selection& select, std::string_view name) {
  return select.all || Listed(select, name);
}

template <class Out>
void AppendMetadataUrl(BasicJsonMembers<Out>& m, const EntityLocation& where,
                       std::string_view suffix) {
  m.Key("odata.metadata");
  Out& out = m.out();
  out.push_back('"');
  AppendJsonEscaped(out, where.base_url);
  out.append(std::string_view("/$metadata#"));
  AppendJsonEscaped(out, where.table);
  out.append(suffix);
  out.push_back('"');
}

// odata.type, odata.id, odata.etag and odata.editLink in the order of spec §5.3. `iso` is the
// entity's Timestamp as PutIso8601 wrote it.
template <class Out>
void AppendEntityAnnotations(BasicJsonMembers<Out>& m, const EntityJsonSource& e,
                             std::string_view iso, MetadataLevel level,
                             const EntityLocation& where) {
  Out& out = m.out();
  const bool full = level == MetadataLevel::kFull;
  if (full) {
    m.LiteralKey(",\"odata.type\":\"");
    AppendJsonEscaped(out, where.account);
    out.push_back('.');
    AppendJsonEscaped(out, where.table);
    out.push_back('"');
    m.LiteralKey(",\"odata.id\":\"");
    AppendJsonEscaped(out, where.base_url);
    out.push_back('/');
    AppendEntityPath(out, where.table, e.partition_key(), e.row_key());
    out.push_back('"');
  }
  m.LiteralKey(",\"odata.etag\":");
  AppendETagJson(out, iso);
  if (full) {
    m.LiteralKey(",\"odata.editLink\":\"");
    AppendEntityPath(out, where.table, e.partition_key(), e.row_key());
    out.push_back('"');
  }
}

// AppendEntityJson into either output (json_writer.h).
template <class Out>
void AppendEntityObject(Out& out, const EntityJsonSource& entity, MetadataLevel level,
                        const EntityLocation& where, const Selection& select,
                        bool with_metadata_url, Iso8601Writer& timestamps) {
  out.push_back('{');
  BasicJsonMembers<Out> m(out);
  const bool annotate = level != MetadataLevel::kNone;
  // The Timestamp is formatted once, for the ETag and the Timestamp property.
  char iso_buf[kIso8601MaxChars];
  const std::string_view iso(iso_buf, timestamps.Put(iso_buf, entity.timestamp()));
  if (annotate) {
    if (with_metadata_url) AppendMetadataUrl(m, where, "/@Element");
    AppendEntityAnnotations(m, entity, iso, level, where);
  }
  if (Selected(select, "PartitionKey")) {
    m.LiteralString(",\"PartitionKey\":", entity.partition_key());
  }
  if (Selected(select, "RowKey")) {
    m.LiteralString(",\"RowKey\":", entity.row_key());
  }
  if (Selected(select, "Timestamp")) {
    if (level == MetadataLevel::kFull) m.LiteralKey(",\"Timestamp@odata.type\":\"Edm.DateTime\"");
    m.LiteralKey(",\"Timestamp\":\"");
    out.append(iso.data(), iso.size());
    out.push_back('"');
  }
  if (select.all) {
    entity.ForEachProperty([&m, annotate](std::string_view name, const PropertyView& value) {
      AppendProperty(m, name, value, annotate);
    });
  } else {
    // Azure: spec §6.4 — selected properties the entity lacks come back as null.
    for (const std::string& name : select.names) {
      if (IsSystemProperty(name)) continue;
      if (const auto p = entity.FindProperty(name)) {
        AppendProperty(m, name, *p, annotate);
      } else {
        m.Key(name);
        out.append("null", 4);
      }
    }
  }
  out.push_back('}');
}

}  // namespace

void AppendEntityJson(std::string& out, const EntityJsonSource& entity, MetadataLevel level,
                      const EntityLocation& where, const Selection& select,
                      bool with_metadata_url) {
  Iso8601Writer timestamps;
  AppendEntityJson(out, entity, level, where, select, with_metadata_url, timestamps);
}

void AppendEntityJson(std::string& out, const EntityJsonSource& entity, MetadataLevel level,
                      const EntityLocation& where, const Selection& select, bool with_metadata_url,
                      Iso8601Writer& timestamps) {
  AppendEntityObject(out, entity, level, where, select, with_metadata_url, timestamps);
}

void AppendEntityJson(std::string& out, const Entity& entity, MetadataLevel level,
                      const EntityLocation& where, const Selection& select,
                      bool with_metadata_url) {
  AppendEntityJson(out, DecodedEntitySource(entity), level, where, select, with_metadata_url);
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
  for (const Property& p : entity.properties) {
    const EdmValue& v = p.value;
    AppendProperty(m, p.name, PropertyView{v.type, v.integer, v.number, v.bytes}, true);
  }
  out.push_back('}');
}

// An entity of a few short properties renders to about 400 bytes at minimal metadata.
EntityFeedWriter::EntityFeedWriter(MetadataLevel level, const EntityLocation& where,
                                   const Selection& select, std::size_t expected_entities)
    : out_(128 + expected_entities * 512), level_(level), where_(where), select_(select) {
  out_.push_back('{');
  BasicJsonMembers<JsonBuffer> m(out_);
  if (level != MetadataLevel::kNone) AppendMetadataUrl(m, where, "");
  m.LiteralKey(",\"value\":[");
}

void EntityFeedWriter::Add(const EntityJsonSource& entity) {
  if (!first_) out_.push_back(',');
  first_ = false;
  AppendEntityObject(out_, entity, level_, where_, select_, false, timestamps_);
}

std::string EntityFeedWriter::Finish() {
  out_.append("]}", 2);
  return out_.Take();
}

std::string RenderEntityFeed(const std::vector<Entity>& entities, MetadataLevel level,
                             const EntityLocation& where, const Selection& select) {
  EntityFeedWriter feed(level, where, select, entities.size());
  for (const Entity& entity : entities) feed.Add(DecodedEntitySource(entity));
  return feed.Finish();
}

}  // namespace malachite::server
