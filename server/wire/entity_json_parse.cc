// ParseEntityJson: entity request bodies (spec §5.2) through simdjson into validated Entities,
// with the EDM value decoding of annotated and unannotated properties.
#include "server/wire/entity_json_parse.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>

#include "common/datetime.h"
#include "common/encoding.h"
#include "common/refusal.h"
#include "common/validation.h"

namespace malachite::server {
namespace {

namespace dom = simdjson::dom;

constexpr std::string_view kTypeSuffix = "@odata.type";
// A parser (or member list) that grew past this for a large body is dropped rather than kept
// per thread.
constexpr std::size_t kKeepParserCapacity = 256 * 1024;
constexpr std::size_t kKeepMembers = 1024;

struct Member {
  std::string_view name;
  dom::element value;
};

struct Annotation {
  std::string_view name;  // the annotated property
  std::string_view type;  // "Edm.Int64", ...
};

// The thread's parser, padded input buffer and member lists, reused so that a parse allocates
// only the resulting Entity. The DOM (and the members viewing it) live until the next parse on
// this thread.
struct ParserState {
  dom::parser parser;
  std::string buffer;
  std::vector<Member> members;
  std::vector<Annotation> annotations;
  std::vector<std::string_view> names;  // scratch of HasDuplicateNames
};

ParserState& ThreadParser() {
  thread_local std::unique_ptr<ParserState> state;
  if (!state || state->parser.capacity() > kKeepParserCapacity ||
      state->members.capacity() > kKeepMembers || state->annotations.capacity() > kKeepMembers ||
      state->names.capacity() > kKeepMembers) {
    state = std::make_unique<ParserState>();
  }
  return *state;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// True when some name occurs twice. A typical entity's few names are compared pairwise; more
// are sorted (in `names`), which keeps this O(n log n) for hostile bodies.
template <typename T>
bool HasDuplicateNames(const std::vector<T>& items, std::vector<std::string_view>& names) {
  constexpr std::size_t kPairwiseMax = 12;
  if (items.size() <= kPairwiseMax) {
    for (std::size_t i = 1; i < items.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (items[i].name == items[j].name) return true;
      }
    }
    return false;
  }
  names.clear();
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
  const auto out_of_range = [type] {
    return Fail(
        ErrorCode::kOutOfRangeInput, {},
        RefusalDetail(type == EdmType::kInt32 ? Refusal::kInt32Range : Refusal::kInt64Range));
  };
  std::int64_t value = 0;
  bool overflow = false;
  if (v.is_int64()) {
    value = v.get_int64().value_unsafe();
  } else if (v.is_uint64()) {
    return out_of_range();
  } else if (v.is_string()) {
    std::optional<std::int64_t> parsed =
        ParseDecimal<std::int64_t>(v.get_string().value_unsafe(), overflow);
    if (overflow) return out_of_range();
    if (!parsed) return Fail(ErrorCode::kInvalidInput);
    value = *parsed;
  } else {
    return Fail(ErrorCode::kInvalidInput);
  }
  if (value < lo || value > hi) return out_of_range();
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
  if (ec == std::errc::result_out_of_range || (ec == std::errc() && !std::isfinite(value))) {
    return Fail(ErrorCode::kInvalidInput, {}, RefusalDetail(Refusal::kDoubleRange));
  }
  if (ec != std::errc() || end != text.data() + text.size()) return Fail(ErrorCode::kInvalidInput);
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
    return Fail(ErrorCode::kOutOfRangeInput, {}, RefusalDetail(Refusal::kDateTimeRange));
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

// Azure: spec §5.2 type inference for values without an annotation, written into `out` (a
// default EdmValue): a string goes straight into the property instead of being built and moved.
Result<void> InferValue(dom::element v, EdmValue& out) {
  switch (v.type()) {
    case dom::element_type::STRING:
      out.type = EdmType::kString;
      out.bytes.assign(v.get_string().value_unsafe());
      return {};
    case dom::element_type::INT64: {
      const std::int64_t i = v.get_int64().value_unsafe();
      // Azure: an integer outside Int32 becomes a Double (spec §5.2), not an Int64.
      out = i >= INT32_MIN && i <= INT32_MAX ? EdmValue::Int32(static_cast<std::int32_t>(i))
                                             : EdmValue::Double(static_cast<double>(i));
      return {};
    }
    case dom::element_type::UINT64:
      out = EdmValue::Double(static_cast<double>(v.get_uint64().value_unsafe()));
      return {};
    case dom::element_type::DOUBLE:
      out = EdmValue::Double(v.get_double().value_unsafe());
      return {};
    case dom::element_type::BOOL:
      out = EdmValue::Boolean(v.get_bool().value_unsafe());
      return {};
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
Result<void> CollectMembers(dom::object object, ParserState& state) {
  std::vector<Member>& members = state.members;
  std::vector<Annotation>& annotations = state.annotations;
  members.clear();
  annotations.clear();
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
  if (HasDuplicateNames(members, state.names) || HasDuplicateNames(annotations, state.names)) {
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
  key.assign(m.value.get_string().value_unsafe());
  has = true;
  return {};
}

// A refused value's detail (common/refusal.h) gets the property's name and value, which the
// design advisor shows as its example: "...: property 'Born' = '1500-01-01T00:00:00Z'".
void NameRefusedProperty(const Member& m, Error& error) {
  if (error.detail.empty()) return;
  constexpr std::size_t kMaxShown = 64;
  error.detail += ": property '";
  error.detail += m.name;
  error.detail += "'";
  if (m.value.is_string()) {
    error.detail += " = '";
    error.detail += m.value.get_string().value_unsafe().substr(0, kMaxShown);
    error.detail += "'";
  } else if (m.value.is_number()) {
    error.detail += " = ";
    error.detail += simdjson::minify(m.value);
  }
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
  // Built in place, the common unannotated value written straight into it.
  Property& property = entity.properties.emplace_back();
  Result<void> ok;
  if (!type) {
    ok = InferValue(m.value, property.value);
  } else if (Result<EdmValue> value = ConvertAnnotated(m.value, *type); value) {
    property.value = std::move(*value);
  } else {
    ok = tl::unexpected(std::move(value.error()));
    NameRefusedProperty(m, ok.error());
  }
  if (!ok) {
    entity.properties.pop_back();
    return ok;
  }
  property.name.assign(m.name);
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
  if (auto ok = CollectMembers(root.get_object().value_unsafe(), state); !ok) {
    return tl::unexpected(std::move(ok.error()));
  }
  const std::vector<Member>& members = state.members;
  const std::vector<Annotation>& annotations = state.annotations;
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

}  // namespace malachite::server
