#include "common/entity.h"

#include "common/datetime.h"

namespace malachite {

const Property* Entity::Find(std::string_view name) const {
  for (const Property& p : properties) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

Property* Entity::Find(std::string_view name) {
  for (Property& p : properties) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::string FormatETag(DateTime timestamp) {
  std::string text = FormatIso8601(timestamp);
  std::string etag = "W/\"datetime'";
  etag.reserve(text.size() + 24);
  for (char c : text) {
    if (c == ':') {
      etag += "%3A";
    } else {
      etag += c;
    }
  }
  etag += "'\"";
  return etag;
}

}  // namespace malachite
