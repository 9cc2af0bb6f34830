// Which operation a request asks for, on which account/table/entity (spec §1).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/error.h"
#include "server/http_message.h"

namespace malachite::server {

// Azure: spec §1.4 routing table.
enum class Operation {
  kQueryTables,
  kGetTable,
  kCreateTable,
  kDeleteTable,
  kQueryEntities,  // also the point query GET /t(PK,RK) -> kGetEntity
  kGetEntity,
  kInsertEntity,
  kUpdateEntity,           // PUT with If-Match
  kMergeEntity,            // MERGE/PATCH with If-Match
  kInsertOrReplaceEntity,  // PUT without If-Match
  kInsertOrMergeEntity,    // MERGE/PATCH without If-Match
  kDeleteEntity,
  kGetTableAcl,
  kSetTableAcl,
  kGetServiceProperties,
  kSetServiceProperties,
  kGetServiceStats,
  kBatch,
  kPreflight,
};

// Operation name in Azure's words ("QueryEntities", "InsertOrMergeEntity", ...), for logs.
std::string_view OperationName(Operation op);

// Azure: spec §2.3 — the operations whose bodies are XML (ACL, service properties and stats,
// preflight); every other operation is an OData (JSON) one.
bool IsXmlOperation(Operation op);

// Decoded query parameters in arrival order; names and values percent-decoded.
struct QueryParams {
  std::vector<std::pair<std::string, std::string>> items;
  // The first value of `name` (exact match after decoding, e.g. "$filter"), or nullptr.
  const std::string* Find(std::string_view name) const;
};

struct Route {
  Operation op = Operation::kQueryTables;
  std::string account;      // without "-secondary"
  bool secondary = false;   // the account segment ended in "-secondary"
  std::string table;        // as written in the URL (case preserved); empty for service ops
  std::string partition_key;  // decoded, '' unescaped (entity routes only)
  std::string row_key;
  QueryParams query;
  std::string raw_path;     // path exactly as sent (before '?'), for the Shared Key signature
  std::string method;       // the effective verb after X-HTTP-Method tunnelling
};

// Routes `request` (spec §1.2–1.4, including X-HTTP-Method rules). Errors: kInvalidUri,
// kUnsupportedHttpVerb, kXMethodIncorrectCount/kXMethodNotUsingPost/kXMethodIncorrectValue,
// kInvalidQueryParameterValue (unknown comp), kOutOfRangeInput/kInvalidResourceName (table name).
Result<Route> RouteRequest(const Request& request);

}  // namespace malachite::server
