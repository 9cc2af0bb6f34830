#include "common/edm.h"

#include <array>
#include <cmath>
#include <cstring>

namespace malachite {
namespace {

constexpr std::array<std::string_view, 8> kNames = {
    "Edm.String",  "Edm.Int32",    "Edm.Int64", "Edm.Double",
    "Edm.Boolean", "Edm.DateTime", "Edm.Guid",  "Edm.Binary",
};

}  // namespace

std::string_view EdmTypeName(EdmType type) { return kNames[static_cast<std::size_t>(type)]; }

std::optional<EdmType> ParseEdmTypeName(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<EdmType>(i);
  }
  return std::nullopt;
}

bool EdmValue::operator==(const EdmValue& other) const {
  if (type != other.type) return false;
  switch (type) {
    case EdmType::kString:
    case EdmType::kGuid:
    case EdmType::kBinary:
      return bytes == other.bytes;
    case EdmType::kDouble:
      // Tests compare round-trips: NaN must equal NaN, -0.0 must differ from 0.0.
      return std::memcmp(&number, &other.number, sizeof number) == 0 ||
             (std::isnan(number) && std::isnan(other.number));
    default:
      return integer == other.integer;
  }
}

}  // namespace malachite
