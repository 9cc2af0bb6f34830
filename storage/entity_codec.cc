#include "storage/entity_codec.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "storage/varint.h"

namespace malachite::storage {
namespace {

constexpr std::size_t kHeaderBytes = 1 + 8;  // version, timestamp ticks

void AppendFixed64(std::string* out, std::uint64_t v) {
  char buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>(v >> (8 * i));  // little-endian
  out->append(buf, 8);
}

std::uint64_t ReadFixed64(const char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
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

// Reads one property at *p; false when malformed. Views point into the record.
bool ReadProperty(Reader* r, std::string_view* name, PropertyView* value) {
  std::uint8_t type = 0;
  std::uint64_t len = 0;
  if (!r->Byte(&type) || type > static_cast<std::uint8_t>(EdmType::kBinary)) return false;
  if (!r->Varint(&len) || !r->Bytes(len, name)) return false;
  value->type = static_cast<EdmType>(type);
  std::string_view raw;
  switch (value->type) {
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
      if (!r->Byte(&type)) return false;
      value->integer = type != 0 ? 1 : 0;
      return true;
    case EdmType::kDateTime:
      if (!r->Bytes(8, &raw)) return false;
      value->integer = static_cast<std::int64_t>(ReadFixed64(raw.data()));
      return true;
  }
  return false;
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
  if (bytes.size() < kHeaderBytes + 1)
    return Fail(ErrorCode::kInternalError, "truncated entity record");
  if (static_cast<std::uint8_t>(bytes[0]) != kEntityRecordVersion) {
    return Fail(
        ErrorCode::kInternalError,
        "unknown entity record version " + std::to_string(static_cast<unsigned char>(bytes[0])));
  }
  DateTime ts{static_cast<std::int64_t>(ReadFixed64(bytes.data() + 1))};
  Reader r(bytes.substr(kHeaderBytes));
  std::uint64_t count = 0;
  if (!r.Varint(&count)) return Fail(ErrorCode::kInternalError, "truncated entity record");
  return EntityRecord(r.rest(), count, ts);
}

std::optional<PropertyView> EntityRecord::Find(std::string_view name) const {
  Reader r(props_);
  std::string_view n;
  PropertyView v;
  for (std::uint64_t i = 0; i < count_; ++i) {
    if (!ReadProperty(&r, &n, &v)) return std::nullopt;
    if (n == name) return v;
  }
  return std::nullopt;
}

Result<void> EntityRecord::DecodeProperties(std::vector<Property>* out) const {
  Reader r(props_);
  std::string_view n;
  PropertyView v;
  out->reserve(out->size() + count_);
  for (std::uint64_t i = 0; i < count_; ++i) {
    if (!ReadProperty(&r, &n, &v))
      return Fail(ErrorCode::kInternalError, "malformed entity record");
    out->push_back(Property{std::string(n), ToValue(v)});
  }
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
