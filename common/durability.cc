#include "common/durability.h"

namespace malachite {

std::string_view DurabilityName(Durability durability) {
  switch (durability) {
    case Durability::kProcess:
      return "process";
    case Durability::kFull:
      return "full";
    case Durability::kNone:
      return "none";
  }
  return "?";
}

std::optional<Durability> ParseDurability(std::string_view name) {
  for (Durability d : {Durability::kProcess, Durability::kFull, Durability::kNone}) {
    if (DurabilityName(d) == name) return d;
  }
  return std::nullopt;
}

}  // namespace malachite
