// A table's content as files carry it (fixtures, imports): which account and table, and the
// entities in the order they were read.
#pragma once

#include <string>
#include <vector>

#include "common/entity.h"

namespace malachite {

struct TableContent {
  std::string account;
  std::string table;             // as it will be created (case preserved)
  std::vector<Entity> entities;  // timestamps unset: the store stamps them on write
};

}  // namespace malachite
