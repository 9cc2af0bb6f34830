// The versioned binary encoding of stored entities (storage/FORMAT.md, "Entity records"). Keys
// are not part of the record: they are in the LMDB key.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/entity.h"
#include "common/error.h"
#include "storage/store.h"

namespace malachite::storage {

inline constexpr std::uint8_t kEntityRecordVersion = 1;

// Appends the record of `entity` (timestamp and properties, not the keys) to *out.
void EncodeEntityRecord(const Entity& entity, std::string* out);
std::string EncodeEntityRecord(const Entity& entity);

// A read-only view of an encoded record; decodes fields on demand. Holds only a string_view:
// lives as long as the bytes it was parsed from.
class EntityRecord {
 public:
  // Checks the version and header size. Errors: kInternalError (unknown version, truncated).
  static Result<EntityRecord> Parse(std::string_view bytes);

  DateTime timestamp() const { return timestamp_; }
  // The property `name` (case-sensitive) or nullopt; walks the record without allocating.
  // A malformed record reads as having no further properties.
  std::optional<PropertyView> Find(std::string_view name) const;
  // Appends every property to *out. Errors: kInternalError for a malformed record.
  Result<void> DecodeProperties(std::vector<Property>* out) const;

 private:
  EntityRecord(std::string_view props, std::uint64_t count, DateTime ts)
      : props_(props), count_(count), timestamp_(ts) {}
  std::string_view props_;  // the property list, after the header
  std::uint64_t count_ = 0;
  DateTime timestamp_;
};

// The whole entity with the given keys. Errors: kInternalError for a malformed record.
Result<Entity> DecodeEntity(std::string_view pk, std::string_view rk, std::string_view record);

}  // namespace malachite::storage
