// Where the $filter evaluator (odata) gets property values from: an entity (PartitionKey, RowKey,
// Timestamp and custom properties), decoded or read in place by storage, or a table row
// (TableName).
#pragma once

#include <optional>
#include <string_view>

#include "common/property_view.h"

namespace malachite {

class PropertySource {
 public:
  virtual ~PropertySource() = default;
  // The property `name` (case-sensitive), or nullopt when the row has no such property. The view
  // lives as long as the source.
  virtual std::optional<PropertyView> Get(std::string_view name) const = 0;
};

}  // namespace malachite
