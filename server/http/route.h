// A routed request: which operation it asks for, on which account/table/entity (spec §1), with
// its decoded query parameters. http/router.h produces it; every room below reads it.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/operation.h"

namespace malachite::server {

// Decoded query parameters in arrival order; names and values percent-decoded.
struct QueryParams {
  std::vector<std::pair<std::string, std::string>> items;
  // The first value of `name` (exact match after decoding, e.g. "$filter"), or nullptr.
  const std::string* Find(std::string_view name) const;
};

// Azure: spec §1.2 — a table name where the path expects a resource: "/<t>/<segment>[(...)]",
// what an SDK sends when its endpoint ends in a table name. The service resolves <t> first.
enum class ExtraSegment : unsigned char {
  kNone,       // the ordinary one-segment resource
  kBare,       // "/<t>/<segment>": POST inserts into <t>, any other verb is NotImplemented
  kOneKey,     // "/<t>/<segment>(<key>)" with one key (or not PartitionKey/RowKey): InvalidInput
  kEntityKeys  // "/<t>/<segment>(PartitionKey=..,RowKey=..)": NotImplemented
};

struct Route {
  Operation op = Operation::kQueryTables;
  std::string account;     // without "-secondary"
  bool secondary = false;  // the account segment (or host label) ended in "-secondary"
  // The account came from the Host (spec §1.1 host style): raw_path holds no account segment.
  bool host_style = false;
  std::string table;          // as written in the URL (case preserved); empty for service ops
  std::string partition_key;  // decoded, '' unescaped (entity routes only)
  std::string row_key;
  QueryParams query;
  std::string raw_path;  // path exactly as sent (before '?'), for the Shared Key signature
  std::string method;    // the effective verb after X-HTTP-Method tunnelling
  ExtraSegment extra_segment = ExtraSegment::kNone;  // set with `table` = <t> (see above)
};

}  // namespace malachite::server
