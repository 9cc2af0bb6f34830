// A property value read in place, without owning it: how $filter evaluation sees the properties of
// an entity, whether it was decoded (Entity) or is read straight from LMDB memory during a scan.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/edm.h"

namespace malachite {

// `bytes` views memory owned by the source (an Entity, or an LMDB page inside a read
// transaction) and lives exactly as long as that source does.
struct PropertyView {
  EdmType type = EdmType::kString;
  std::int64_t integer = 0;  // Int32, Int64, Boolean (0/1), DateTime ticks
  double number = 0;         // Double
  std::string_view bytes;    // String (UTF-8), Guid (16 raw bytes), Binary
};

// Azure: spec §6.2 — every entity has PartitionKey and RowKey (String) and Timestamp (DateTime),
// which filters and $select read like its custom properties.
enum class SystemProperty { kNone, kPartitionKey, kRowKey, kTimestamp };

// Which system property `name` (case-sensitive) is, or kNone.
inline SystemProperty FindSystemProperty(std::string_view name) {
  if (name == "PartitionKey") return SystemProperty::kPartitionKey;
  if (name == "RowKey") return SystemProperty::kRowKey;
  if (name == "Timestamp") return SystemProperty::kTimestamp;
  return SystemProperty::kNone;
}

inline bool IsSystemProperty(std::string_view name) {
  return FindSystemProperty(name) != SystemProperty::kNone;
}

// The view of a key (String) and of the Timestamp (DateTime).
inline PropertyView StringPropertyView(std::string_view text) {
  PropertyView view;
  view.bytes = text;
  return view;
}
inline PropertyView DateTimePropertyView(DateTime timestamp) {
  PropertyView view;
  view.type = EdmType::kDateTime;
  view.integer = timestamp.ticks;
  return view;
}

}  // namespace malachite
