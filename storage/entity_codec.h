// The versioned binary encoding of stored entities (storage/FORMAT.md, "Entity records"). Keys
// are not part of the record: they are in the LMDB key.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/entity.h"
#include "common/error.h"
#include "common/function_ref.h"
#include "storage/store.h"
#include "storage/varint.h"

namespace malachite::storage {

inline constexpr std::uint8_t kEntityRecordVersion = 1;
inline constexpr std::size_t kEntityRecordHeaderBytes =
    1 + 8;  // version, timestamp ticks (then the count)

// Appends the record of `entity` (timestamp and properties, not the keys) to *out.
void EncodeEntityRecord(const Entity& entity, std::string* out);
std::string EncodeEntityRecord(const Entity& entity);

// A read-only view of an encoded record; decodes fields on demand. Holds only a string_view:
// lives as long as the bytes it was parsed from.
class EntityRecord {
 public:
  // An empty record (no properties, timestamp 0), to be pointed at bytes with Reset.
  EntityRecord() = default;

  // Checks the version and header size. Errors: kInternalError (unknown version, truncated).
  static Result<EntityRecord> Parse(std::string_view bytes);
  // Parse without building an error, for scans that point one record at row after row: false
  // (and the record unchanged or partly set: do not use it) where Parse fails.
  // Inline: a scan calls it once per entity.
  bool Reset(std::string_view bytes) {
    if (bytes.size() < kEntityRecordHeaderBytes + 1 ||
        static_cast<std::uint8_t>(bytes[0]) != kEntityRecordVersion) {
      return false;
    }
    Reader r(std::string_view(bytes.data() + kEntityRecordHeaderBytes,
                              bytes.size() - kEntityRecordHeaderBytes));
    if (!r.Varint(&count_)) return false;
    std::uint64_t ticks;
    std::memcpy(&ticks, bytes.data() + 1, 8);
    if constexpr (std::endian::native == std::endian::big) ticks = __builtin_bswap64(ticks);
    timestamp_ = DateTime{static_cast<std::int64_t>(ticks)};  // little-endian on disk
    props_ = r.rest();
    return true;
  }

  DateTime timestamp() const { return timestamp_; }
  // The property `name` (case-sensitive) or nullopt; walks the record without allocating, steps
  // over the values of the properties before it by their encoded lengths without decoding them.
  // A malformed record reads as having no further properties.
  std::optional<PropertyView> Find(std::string_view name) const;
  // Calls visit(name, value) for each property in stored order; the views live as long as the
  // record's bytes. False when the record is malformed (after visiting the readable prefix).
  bool ForEach(FunctionRef<void(std::string_view, const PropertyView&)> visit) const;
  // Appends every property to *out. Errors: kInternalError for a malformed record.
  Result<void> DecodeProperties(std::vector<Property>* out) const;

 private:
  std::string_view props_;  // the property list, after the header
  std::uint64_t count_ = 0;
  DateTime timestamp_;
};

// The whole entity with the given keys. Errors: kInternalError for a malformed record.
Result<Entity> DecodeEntity(std::string_view pk, std::string_view rk, std::string_view record);

}  // namespace malachite::storage
