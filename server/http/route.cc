#include "server/http/route.h"

namespace malachite::server {

const std::string* QueryParams::Find(std::string_view name) const {
  for (const auto& [key, value] : items) {
    if (key == name) return &value;
  }
  return nullptr;
}

}  // namespace malachite::server
