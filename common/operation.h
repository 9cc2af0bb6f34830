// The operations of the Table service (spec §1.4) and what every room needs to know about each one,
// as one table of data: the router picks an Operation, and auth, negotiation, the throttle,
// metrics and the handlers ask TraitsOf instead of switching on it.
#pragma once

#include <cstddef>
#include <string_view>

#include "common/rbac.h"

namespace malachite {

// Azure: spec §1.4 routing table. The order is the order of the traits table (operation.cc).
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
inline constexpr std::size_t kOperationCount = static_cast<std::size_t>(Operation::kPreflight) + 1;

// How an operation's request and response bodies are framed (spec §2.3).
enum class OperationBody {
  kOData,      // JSON entities/tables (OData), negotiated from Accept/$format
  kXml,        // ACL, service properties and stats: XML in and out
  kMultipart,  // $batch
  kPreflight,  // CORS OPTIONS: no body; errors as XML
};

// Azure: spec §10.7 — an account SAS's resource types (`srt`).
enum class SasResource { kNone, kService, kContainer, kObject };

// One row of the traits table (operation.cc), written with designated initialisers: a field a row
// leaves out has the default below.
struct OperationTraits {
  Operation op = Operation::kQueryTables;  // the row's own operation: the table checks its order
  std::string_view name;  // Azure's name: "QueryEntities", "InsertOrMergeEntity", ...
  OperationBody body = OperationBody::kOData;
  bool reads_entities = false;   // Query Entities, Get Entity
  bool writes_entity = false;    // the six single-entity writes (Insert .. Delete)
  bool writes_entities = false;  // writes_entity, and $batch: entities written for metrics
  // Azure: spec §12.1 — the route's PartitionKey is the partition the request works in
  // (Get Entity and the writes addressed by key; not Insert, whose keys are in the body).
  bool route_names_partition = false;
  // Azure: spec §7.1 — may be an operation inside a $batch changeset (the entity writes and
  // Insert).
  bool batch_allowed = false;
  // Azure: spec §10.7 — an account SAS needs `account_sas_resource` in srt and any one of
  // `account_sas_any` (when not empty) plus all of `account_sas_all` in sp. kNone: account owner
  // only. $batch: each operation inside is checked on its own.
  SasResource account_sas_resource = SasResource::kNone;
  std::string_view account_sas_any = {};
  std::string_view account_sas_all = {};
  // Azure: spec §10.8 — a table SAS grants entity operations only, needing every letter of
  // `table_sas_needs` in sp. False: not delegable by a table SAS.
  bool table_sas_allowed = false;
  std::string_view table_sas_needs = {};
  // Azure: spec §10.8 — a SAS's key range is checked against the route's PartitionKey and RowKey
  // when the request is authenticated, before its body is read: the entity writes addressed by
  // key. Insert (keys in the body) and $batch are checked by their handlers; Get Entity and the
  // queries are narrowed to the range instead of refused.
  bool sas_checks_route_keys = false;
  // Azure: spec §10.9 — the RBAC actions a bearer-token (Entra ID) request needs. Empty for
  // $batch (each operation inside needs its own) and preflight (anonymous).
  RbacActions rbac_needs = 0;
};

// The traits of `op`. The reference lives for the program.
const OperationTraits& TraitsOf(Operation op);

// True for the operations that change state: creating or deleting a table, the entity writes,
// $batch, Set Table ACL and Set Table Service Properties. Azure: spec §1.1 — the ones the
// read-only secondary endpoint refuses.
inline bool ChangesState(Operation op) {
  return TraitsOf(op).writes_entities || op == Operation::kCreateTable ||
         op == Operation::kDeleteTable || op == Operation::kSetTableAcl ||
         op == Operation::kSetServiceProperties;
}

// Operation name in Azure's words ("QueryEntities", "InsertOrMergeEntity", ...), for logs.
inline std::string_view OperationName(Operation op) { return TraitsOf(op).name; }

// Azure: spec §2.3 — the operations whose bodies and errors are XML (ACL, service properties and
// stats, preflight); every other operation is an OData (JSON) one.
inline bool IsXmlOperation(Operation op) {
  const OperationBody body = TraitsOf(op).body;
  return body == OperationBody::kXml || body == OperationBody::kPreflight;
}

}  // namespace malachite
