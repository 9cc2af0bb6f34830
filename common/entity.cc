#include "common/entity.h"

#include <algorithm>

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
  std::string etag;
  etag.reserve(48);
  AppendETag(etag, timestamp);
  return etag;
}

void AppendETag(std::string& out, DateTime timestamp) {
  constexpr std::string_view kOpen = "W/\"datetime'";
  constexpr std::string_view kClose = "'\"";
  // Written whole into a buffer and appended once: the ISO text is at most kIso8601MaxChars and
  // its two ':' grow by two bytes each.
  char etag[kOpen.size() + kIso8601MaxChars + 4 + kClose.size()];
  char iso[kIso8601MaxChars];
  const std::size_t iso_size = PutIso8601(iso, timestamp);
  char* at = std::copy(kOpen.begin(), kOpen.end(), etag);
  for (std::size_t i = 0; i < iso_size; ++i) {
    // Azure: spec §3 — ':' percent-encoded.
    if (iso[i] == ':') {
      *at++ = '%';
      *at++ = '3';
      *at++ = 'A';
    } else {
      *at++ = iso[i];
    }
  }
  at = std::copy(kClose.begin(), kClose.end(), at);
  out.append(etag, at);
}

}  // namespace malachite
