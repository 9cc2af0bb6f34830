#include "common/entity_size.h"

#include "common/encoding.h"

namespace malachite {

// Azure: the formula of the Storage team's post "Understanding Windows Azure Storage Billing –
// Bandwidth, Transactions, and Capacity" (2010): 4 bytes of overhead per entity
// (Timestamp and system metadata), keys and names as UTF-16, 8 bytes of overhead per property.
std::uint64_t BillableValueSize(const EdmValue& value) {
  switch (value.type) {
    case EdmType::kString:
      return 2 * Utf16Length(value.bytes) + 4;
    case EdmType::kBinary:
      return value.bytes.size() + 4;
    case EdmType::kInt32:
      return 4;
    case EdmType::kInt64:
    case EdmType::kDouble:
    case EdmType::kDateTime:
      return 8;
    case EdmType::kGuid:
      return 16;
    case EdmType::kBoolean:
      return 1;
  }
  return 0;
}

std::uint64_t BillableEntitySize(const Entity& entity) {
  std::uint64_t size = 4 + 2 * (Utf16Length(entity.partition_key) + Utf16Length(entity.row_key));
  for (const Property& p : entity.properties) {
    size += 8 + 2 * Utf16Length(p.name) + BillableValueSize(p.value);
  }
  return size;
}

}  // namespace malachite
