// $select (spec §6.4): which properties a response carries.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace malachite::server {

// Which properties to emit ($select); empty `names` with `all` true means every property.
struct Selection {
  bool all = true;
  std::vector<std::string> names;  // as given in $select, in that order
};

// Parses a $select value ("A,B , C") into a Selection; repeated names are kept once; empty text
// or "*" selects everything. kInvalidInput for an empty item ("A,,B") or more than 255 names.
Result<Selection> ParseSelect(std::string_view text);

}  // namespace malachite::server
