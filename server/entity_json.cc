#include "server/entity_json.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>

#include "common/datetime.h"
#include "common/encoding.h"
#include "common/validation.h"
#include "server/json_writer.h"

namespace malachite::server {
namespace {

namespace dom = simdjson::dom;

constexpr std::string_view kTypeSuffix = "@odata.type";
// Azure: spec §6.4 — at most 255 properties in $select (rec.: more is InvalidInput).
constexpr std::size_t kMaxSelected = 255;
// A parser that grew past this for a large body is dropped rather than kept per thread.
constexpr std::size_t kKeepParserCapacity = 256 * 1024;

struct Member {
  std::string_view name;
  dom::element value;
};

struct Annotation {
  std::string_view name;  // the annotated property
  std::string_view type;  // "Edm.Int64", ...
};

// The thread's parser and padded input buffer, reused so that a parse allocates only the
// resulting Entity. The DOM lives until the next parse on this thread.
struct ParserState {
  dom::parser parser;
  std::string buffer;
};

ParserState& ThreadParser() {
  thread_local std::unique_ptr<ParserState> state;
  if (!state || state->parser.capacity() > kKeepParserCapacity) {
    state = std::make_unique<ParserState>();
  }
  return *state;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// True when some name occurs twice. Sorting views keeps this O(n log n) for hostile bodies.
template <typename T>
bool HasDuplicateNames(const std::vector<T>& items) {
  std::vector<std::string_view> names;
  names.reserve(items.size());
  for (const T& item : items) names.push_back(item.name);
  std::sort(names.begin(), names.end());
  return std::adjacent_find(names.begin(), names.end()) != names.end();
}

template <typename Int>
std::optional<Int> ParseDecimal(std::string_view text, bool& overflow) {
  Int value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  overflow = ec == std::errc::result_out_of_range;
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

Result<EdmValue> ToInt(dom::element v, EdmType type) {
  // Azure: spec §5.2 — Int64 travels as a digit string; also accept JSON integers (and digit
  // strings for Int32, as Azurite does). Overflow of the declared width is OutOfRangeInput.
  const std::int64_t lo = type == EdmType::kInt32 ? INT32_MIN : INT64_MIN;
  const std::int64_t hi = type == EdmType::kInt32 ? INT32_MAX : INT64_MAX;
  std::int64_t value = 0;
  bool overflow = false;
  if (v.is_int64()) {
    value = v.get_int64().value_unsafe();
  } else if (v.is_uint64()) {
    return Fail(ErrorCode::kOutOfRangeInput);
  } else if (v.is_string()) {
    std::optional<std::int64_t> parsed =
        ParseDecimal<std::int64_t>(v.get_string().value_unsafe(), overflow);
    if (overflow) return Fail(ErrorCode::kOutOfRangeInput);
    if (!parsed) return Fail(ErrorCode::kInvalidInput);
    value = *parsed;
  } else {
    return Fail(ErrorCode::kInvalidInput);
  }
  if (value < lo || value > hi) return Fail(ErrorCode::kOutOfRangeInput);
  return type == EdmType::kInt32 ? EdmValue::Int32(static_cast<std::int32_t>(value))
                                 : EdmValue::Int64(value);
}

Result<EdmValue> ToDouble(dom::element v) {
  if (v.is_number()) return EdmValue::Double(v.get_double().value_unsafe());
  if (!v.is_string()) return Fail(ErrorCode::kInvalidInput);
  const std::string_view text = v.get_string().value_unsafe();
  // Azure: spec §5.2 — non-finite values are the strings .NET's double.Parse accepts.
  if (text == "NaN") return EdmValue::Double(std::nan(""));
  if (text == "Infinity") return EdmValue::Double(HUGE_VAL);
  if (text == "-Infinity") return EdmValue::Double(-HUGE_VAL);
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  // Overflow (1.797693134862316e309) is a 400 like any unparsable number.
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return Fail(ErrorCode::kInvalidInput);
  }
  return EdmValue::Double(value);
}

Result<EdmValue> ToBoolean(dom::element v) {
  if (v.is_bool()) return EdmValue::Boolean(v.get_bool().value_unsafe());
  if (v.is_string()) {
    const std::string_view text = v.get_string().value_unsafe();
    if (AsciiIEquals(text, "true")) return EdmValue::Boolean(true);
    if (AsciiIEquals(text, "false")) return EdmValue::Boolean(false);
  }
  return Fail(ErrorCode::kInvalidInput);
}

Result<EdmValue> ToDateTime(std::string_view text) {
  // Azure: spec §5.2 — empty is InvalidInput, outside 1601..9999 is OutOfRangeInput.
  std::optional<DateTime> t = ParseIso8601(text);
  if (!t) return Fail(ErrorCode::kInvalidInput);
  if (t->ticks < kMinDateTimeTicks || t->ticks > kMaxDateTimeTicks) {
    return Fail(ErrorCode::kOutOfRangeInput);
  }
  return EdmValue::Time(*t);
}

// Converts a value whose type the client declared with `@odata.type`.
Result<EdmValue> ConvertAnnotated(dom::element v, EdmType type) {
  switch (type) {
    case EdmType::kInt32:
    case EdmType::kInt64:
      return ToInt(v, type);
    case EdmType::kDouble:
      return ToDouble(v);
    case EdmType::kBoolean:
      return ToBoolean(v);
    default:
      break;
  }
  if (!v.is_string()) return Fail(ErrorCode::kInvalidInput);
  const std::string_view text = v.get_string().value_unsafe();
  switch (type) {
    case EdmType::kString:
      return EdmValue::String(std::string(text));
    case EdmType::kDateTime:
      return ToDateTime(text);
    case EdmType::kGuid:
      if (auto raw = ParseGuid(text)) return EdmValue::Guid(*raw);
      return Fail(ErrorCode::kInvalidInput);
    case EdmType::kBinary:
      if (auto raw = Base64Decode(text)) return EdmValue::Binary(std::move(*raw));
      return Fail(ErrorCode::kInvalidInput);
    default:
      return Fail(ErrorCode::kInvalidInput);
  }
}

// Azure: spec §5.2 type inference for values without an annotation.
Result<EdmValue> InferValue(dom::element v) {
  switch (v.type()) {
    case dom::element_type::STRING:
      return EdmValue::String(std::string(v.get_string().value_unsafe()));
    case dom::element_type::INT64: {
      const std::int64_t i = v.get_int64().value_unsafe();
      if (i >= INT32_MIN && i <= INT32_MAX) return EdmValue::Int32(static_cast<std::int32_t>(i));
      // Azure: an integer outside Int32 becomes a Double (spec §5.2), not an Int64.
      return EdmValue::Double(static_cast<double>(i));
    }
    case dom::element_type::UINT64:
      return EdmValue::Double(static_cast<double>(v.get_uint64().value_unsafe()));
    case dom::element_type::DOUBLE:
      return EdmValue::Double(v.get_double().value_unsafe());
    case dom::element_type::BOOL:
      return EdmValue::Boolean(v.get_bool().value_unsafe());
    default:  // objects and arrays (null is handled by the caller)
      return Fail(ErrorCode::kInvalidInput);
  }
}

const Annotation* FindAnnotation(const std::vector<Annotation>& sorted, std::string_view name) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), name,
                             [](const Annotation& a, std::string_view n) { return a.name < n; });
  return it != sorted.end() && it->name == name ? &*it : nullptr;
}

// Splits the top-level object into values and `@odata.type` annotations, dropping `odata.*`.
Result<void> CollectMembers(dom::object object, std::vector<Member>& members,
                            std::vector<Annotation>& annotations) {
  for (dom::key_value_pair field : object) {
    const std::string_view key = field.key;
    // Azure: spec §3 — odata.etag, odata.metadata, ... in a request body are ignored.
    if (StartsWith(key, "odata.")) continue;
    if (key.size() > kTypeSuffix.size() &&
        key.substr(key.size() - kTypeSuffix.size()) == kTypeSuffix) {
      if (!field.value.is_string()) return Fail(ErrorCode::kInvalidInput);
      annotations.push_back({key.substr(0, key.size() - kTypeSuffix.size()),
                             field.value.get_string().value_unsafe()});
    } else {
      members.push_back({key, field.value});
    }
  }
  if (HasDuplicateNames(members) || HasDuplicateNames(annotations)) {
    return Fail(ErrorCode::kDuplicatePropertiesSpecified);
  }
  // Emulator: an annotation without a value (e.g. on a null that was left out) is ignored.
  std::sort(annotations.begin(), annotations.end(),
            [](const Annotation& a, const Annotation& b) { return a.name < b.name; });
  return {};
}

// PartitionKey/RowKey: strings only; an `Edm.String` annotation is fine (Python sends one).
Result<void> TakeKey(const Member& m, const Annotation* note, std::string& key, bool& has) {
  if (note != nullptr && note->type != "Edm.String") return Fail(ErrorCode::kInvalidInput);
  if (!m.value.is_string()) return Fail(ErrorCode::kInvalidInput);
  key = std::string(m.value.get_string().value_unsafe());
  has = true;
  return {};
}

Result<void> AddProperty(const Member& m, const Annotation* note, Entity& entity) {
  if (auto ok = ValidatePropertyName(m.name); !ok) return tl::unexpected(ok.error());
  std::optional<EdmType> type;
  if (note != nullptr) {
    type = ParseEdmTypeName(note->type);
    if (!type) return Fail(ErrorCode::kInvalidInput);  // e.g. Edm.Decimal
  }
  // Azure: spec §3 — a null property is not stored (on Merge it leaves the old value).
  if (m.value.is_null()) return {};
  Result<EdmValue> value = type ? ConvertAnnotated(m.value, *type) : InferValue(m.value);
  if (!value) return tl::unexpected(std::move(value.error()));
  entity.properties.push_back({std::string(m.name), std::move(*value)});
  return {};
}

}  // namespace

Result<ParsedEntity> ParseEntityJson(std::string_view body) {
  ParserState& state = ThreadParser();
  state.buffer.assign(body);
  state.buffer.resize(body.size() + simdjson::SIMDJSON_PADDING);
  dom::element root;
  // Emulator: simdjson rejects integers beyond 64 bits, so such a literal is InvalidInput
  // rather than the Double the service would infer (spec §5.2).
  if (state.parser.parse(state.buffer.data(), body.size(), false).get(root) != simdjson::SUCCESS ||
      !root.is_object()) {
    return Fail(ErrorCode::kInvalidInput);
  }
  std::vector<Member> members;
  std::vector<Annotation> annotations;
  if (auto ok = CollectMembers(root.get_object().value_unsafe(), members, annotations); !ok) {
    return tl::unexpected(std::move(ok.error()));
  }
  ParsedEntity parsed;
  parsed.entity.properties.reserve(members.size());
  for (const Member& m : members) {
    const Annotation* note = annotations.empty() ? nullptr : FindAnnotation(annotations, m.name);
    Result<void> ok;
    if (m.name == "PartitionKey") {
      ok = TakeKey(m, note, parsed.entity.partition_key, parsed.has_partition_key);
    } else if (m.name == "RowKey") {
      ok = TakeKey(m, note, parsed.entity.row_key, parsed.has_row_key);
    } else if (m.name == "Timestamp") {
      continue;  // Azure: spec §3 — server-set; a client's Timestamp is ignored.
    } else {
      ok = AddProperty(m, note, parsed.entity);
    }
    if (!ok) return tl::unexpected(std::move(ok.error()));
  }
  return parsed;
}

Result<Selection> ParseSelect(std::string_view text) {
  Selection selection;
  const auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  };
  text = trim(text);
  if (text.empty() || text == "*") return selection;
  selection.all = false;
  while (true) {
    const std::size_t comma = text.find(',');
    const std::string_view name = trim(text.substr(0, comma));
    // Azure: spec §6.4 — unknown names come back as null members, so each name is echoed into
    // the JSON body and must be valid UTF-8.
    if (name.empty() || name == "*" || !IsValidUtf8(name)) return Fail(ErrorCode::kInvalidInput);
    // Repeated names are kept once so the rendered object has no duplicate members.
    if (std::find(selection.names.begin(), selection.names.end(), name) == selection.names.end()) {
      selection.names.emplace_back(name);
      if (selection.names.size() > kMaxSelected) return Fail(ErrorCode::kInvalidInput);
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return selection;
}

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
