// The size of an entity as the service bills it (capacity): the formula the Azure Storage team
// published for estimating table capacity, also what the design advisor compares with the 1 MiB
// entity limit (spec §9.3).
#pragma once

#include <cstdint>

#include "common/entity.h"

namespace malachite {

// Azure: the billable entity size — 4 bytes + 2 per UTF-16 code unit of PartitionKey and
// RowKey, plus for each custom property 8 bytes + 2 per UTF-16 code unit of its name + its
// value: String 2 per UTF-16 code unit + 4, Binary its bytes + 4, Int32 4, Int64 8, Double 8,
// DateTime 8, Guid 16, Boolean 1. Never fails.
std::uint64_t BillableEntitySize(const Entity& entity);

// The value part of the formula above for one property value.
std::uint64_t BillableValueSize(const EdmValue& value);

}  // namespace malachite
