// An entity as every module sees it: keys, the server-maintained Timestamp and the custom
// properties in the order the client wrote them (spec §5.1).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/edm.h"

namespace malachite {

struct Property {
  std::string name;
  EdmValue value;
  bool operator==(const Property&) const = default;
};

struct Entity {
  std::string partition_key;         // UTF-8; may be empty
  std::string row_key;               // UTF-8; may be empty
  DateTime timestamp;                // last modification, set by the server; also the ETag
  std::vector<Property> properties;  // custom properties only (no PartitionKey/RowKey/Timestamp)

  // The property named `name` (case-sensitive), or nullptr. The pointer lives as long as the
  // entity is not modified.
  const Property* Find(std::string_view name) const;
  Property* Find(std::string_view name);

  bool operator==(const Entity&) const = default;
};

// Azure: spec §3 — ETag is W/"datetime'<Timestamp>'" with ':' percent-encoded as %3A and the
// 7-digit fraction trimmed of trailing zeros, e.g. W/"datetime'2021-02-05T17%3A15%3A16.7935715Z'".
std::string FormatETag(DateTime timestamp);
// Appends FormatETag(timestamp) to `out`.
void AppendETag(std::string& out, DateTime timestamp);
// The ETag's datetime part: `iso8601` (exactly as PutIso8601 writes it) with its two ':'
// percent-encoded. Writes iso8601.size() + 4 bytes to `out` and returns that count; the JSON
// renderer wraps the same text in its own (escaped) quotes.
std::size_t PutETagDateTime(char* out, std::string_view iso8601);

}  // namespace malachite
