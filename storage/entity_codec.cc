#include "storage/entity_codec.h"

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "storage/varint.h"

namespace malachite::storage {
namespace {

void AppendFixed64(std::string* out, std::uint64_t v) {
  char buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>(v >> (8 * i));  // little-endian
  out->append(buf, 8);
}

std::uint64_t ReadFixed64(const char* p) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;  // little-endian on disk
}

void AppendValue(const EdmValue& value, std::string* out) {
  switch (value.type) {
    case EdmType::kString:
    case EdmType::kBinary:
      AppendVarint(out, value.bytes.size());
      out->append(value.bytes);
      break;
    case EdmType::kGuid:  // always 16 raw bytes (EdmValue contract)
      out->append(value.bytes.data(), 16);
      break;
    case EdmType::kInt32:
    case EdmType::kInt64:
      AppendVarint(out, ZigZag(value.integer));
      break;
    case EdmType::kDouble: {
      std::uint64_t bits = 0;
      std::memcpy(&bits, &value.number, 8);  // NaN payloads and -0.0 survive
      AppendFixed64(out, bits);
      break;
    }
    case EdmType::kBoolean:
      out->push_back(value.integer != 0 ? '\1' : '\0');
      break;
    case EdmType::kDateTime:
      AppendFixed64(out, static_cast<std::uint64_t>(value.integer));
      break;
  }
}

// Reads the type and name of the property at the reader; false when malformed.
inline bool ReadHeader(Reader* r, EdmType* type, std::string_view* name) {
  std::uint8_t byte = 0;
  std::uint64_t len = 0;
  if (!r->Byte(&byte) || byte > static_cast<std::uint8_t>(EdmType::kBinary)) return false;
  *type = static_cast<EdmType>(byte);
  return r->Varint(&len) && r->Bytes(len, name);
}

// Reads a value of `type` at the reader into *value; false when malformed. Views point into
// the record. Always inlined: it is the last step of Find, once per scanned entity.
[[gnu::always_inline]] inline bool ReadValue(Reader* r, EdmType type, PropertyView* value) {
  value->type = type;
  std::uint64_t len = 0;
  std::uint8_t byte = 0;
  std::string_view raw;
  switch (type) {
    case EdmType::kString:
    case EdmType::kBinary:
      return r->Varint(&len) && r->Bytes(len, &value->bytes);
    case EdmType::kGuid:
      return r->Bytes(16, &value->bytes);
    case EdmType::kInt32:
    case EdmType::kInt64:
      if (!r->Varint(&len)) return false;
      value->integer = UnZigZag(len);
      return true;
    case EdmType::kDouble: {
      if (!r->Bytes(8, &raw)) return false;
      std::uint64_t bits = ReadFixed64(raw.data());
      std::memcpy(&value->number, &bits, 8);
      return true;
    }
    case EdmType::kBoolean:
      if (!r->Byte(&byte)) return false;
      value->integer = byte != 0 ? 1 : 0;
      return true;
    case EdmType::kDateTime:
      if (!r->Bytes(8, &raw)) return false;
      value->integer = static_cast<std::int64_t>(ReadFixed64(raw.data()));
      return true;
  }
  return false;
}

// Steps over a value of `type` by its encoded length, without decoding it (a scan looking for
// one property passes over the others this way); false when malformed.
[[gnu::always_inline]] inline bool SkipValue(Reader* r, EdmType type) {
  // Bytes of the fixed-size values by EdmType number; 0: a varint, or a varint length and bytes.
  static constexpr std::uint8_t kFixedBytes[] = {0, 0, 0, 8, 1, 8, 16, 0};
  const auto index = static_cast<std::uint8_t>(type);
  if (kFixedBytes[index] != 0) return r->Skip(kFixedBytes[index]);
  std::uint64_t len = 0;
  if (!r->Varint(&len)) return false;
  return type == EdmType::kInt32 || type == EdmType::kInt64 || r->Skip(len);
}

EdmValue ToValue(const PropertyView& v) {
  return EdmValue{v.type, v.integer, v.number, std::string(v.bytes)};
}

}  // namespace

void EncodeEntityRecord(const Entity& entity, std::string* out) {
  out->push_back(static_cast<char>(kEntityRecordVersion));
  AppendFixed64(out, static_cast<std::uint64_t>(entity.timestamp.ticks));
  AppendVarint(out, entity.properties.size());
  for (const Property& p : entity.properties) {
    out->push_back(static_cast<char>(p.value.type));
    AppendVarint(out, p.name.size());
    out->append(p.name);
    AppendValue(p.value, out);
  }
}

std::string EncodeEntityRecord(const Entity& entity) {
  std::string out;
  EncodeEntityRecord(entity, &out);
  return out;
}

Result<EntityRecord> EntityRecord::Parse(std::string_view bytes) {
  EntityRecord record;
  if (record.Reset(bytes)) return record;
  if (!bytes.empty() && static_cast<std::uint8_t>(bytes[0]) != kEntityRecordVersion) {
    return Fail(
        ErrorCode::kInternalError,
        "unknown entity record version " + std::to_string(static_cast<unsigned char>(bytes[0])));
  }
  return Fail(ErrorCode::kInternalError, "truncated entity record");
}

std::optional<PropertyView> EntityRecord::Find(std::string_view name) const {
  // The hot loop of a scan with a $filter on a custom property: names are compared in place and
  // the values before the wanted one are stepped over, not decoded.
  Reader r(props_);
  std::uint8_t type = 0;
  std::uint64_t len = 0;
  for (std::uint64_t i = 0; i < count_; ++i) {
    if (!r.Byte(&type) || type > static_cast<std::uint8_t>(EdmType::kBinary) || !r.Varint(&len) ||
        len > r.rest().size()) {
      return std::nullopt;
    }
    const char* stored = r.rest().data();
    bool match = len == name.size();
    // Byte by byte: names are short, and a memcmp call would cost more than the loop.
    for (std::size_t k = 0; match && k < len; ++k) match = stored[k] == name[k];
    r.Skip(len);
    if (match) {
      PropertyView v;
      if (!ReadValue(&r, static_cast<EdmType>(type), &v)) return std::nullopt;
      return v;
    }
    if (!SkipValue(&r, static_cast<EdmType>(type))) return std::nullopt;
  }
  return std::nullopt;
}

bool EntityRecord::ForEach(FunctionRef<void(std::string_view, const PropertyView&)> visit) const {
  Reader r(props_);
  EdmType type;
  std::string_view n;
  PropertyView v;
  for (std::uint64_t i = 0; i < count_; ++i) {
    if (!ReadHeader(&r, &type, &n) || !ReadValue(&r, type, &v)) return false;
    visit(n, v);
  }
  return true;
}

Result<void> EntityRecord::DecodeProperties(std::vector<Property>* out) const {
  // Each property takes at least three bytes: a corrupt count cannot reserve more than that.
  out->reserve(out->size() + std::min<std::uint64_t>(count_, props_.size() / 3));
  const bool complete = ForEach([out](std::string_view name, const PropertyView& v) {
    out->push_back(Property{std::string(name), ToValue(v)});
  });
  if (!complete) return Fail(ErrorCode::kInternalError, "malformed entity record");
  return {};
}

Result<Entity> DecodeEntity(std::string_view pk, std::string_view rk, std::string_view record) {
  auto parsed = EntityRecord::Parse(record);
  if (!parsed) return tl::unexpected<Error>(parsed.error());
  Entity e;
  e.partition_key.assign(pk);
  e.row_key.assign(rk);
  e.timestamp = parsed->timestamp();
  if (auto ok = parsed->DecodeProperties(&e.properties); !ok)
    return tl::unexpected<Error>(ok.error());
  return e;
}

}  // namespace malachite::storage
