#include "common/entity.h"

#include <algorithm>
#include <cstring>

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
  // Written whole into a buffer and appended once.
  char etag[kOpen.size() + kIso8601MaxChars + 4 + kClose.size()];
  char iso[kIso8601MaxChars];
  char* at = std::copy(kOpen.begin(), kOpen.end(), etag);
  at += PutETagDateTime(at, std::string_view(iso, PutIso8601(iso, timestamp)));
  at = std::copy(kClose.begin(), kClose.end(), at);
  out.append(etag, at);
}

std::size_t PutETagDateTime(char* out, std::string_view iso8601) {
  // Azure: spec §3 — ':' percent-encoded. PutIso8601 writes "yyyy-MM-ddTHH:mm:ss[.fffffff]Z":
  // the two colons are at offsets 13 and 16, so the text is copied around them.
  std::memcpy(out, iso8601.data(), 13);
  std::memcpy(out + 13, "%3A", 3);
  std::memcpy(out + 16, iso8601.data() + 14, 2);
  std::memcpy(out + 18, "%3A", 3);
  std::memcpy(out + 21, iso8601.data() + 17, iso8601.size() - 17);
  return iso8601.size() + 4;
}

}  // namespace malachite
