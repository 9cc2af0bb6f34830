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
  std::string etag = "W/\"datetime'";
  etag.reserve(48);
  const std::size_t start = etag.size();
  AppendIso8601(etag, timestamp);
  // Azure: spec §3 — ':' percent-encoded; the ISO text has exactly two.
  for (std::size_t i = start; i < etag.size(); ++i) {
    if (etag[i] == ':') etag.replace(i, 1, "%3A");
  }
  etag += "'\"";
  return etag;
}

}  // namespace malachite
