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

}  // namespace malachite
