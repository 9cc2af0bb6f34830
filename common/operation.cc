#include "common/operation.h"

#include <array>

namespace malachite {
namespace {

using B = OperationBody;
using O = Operation;
using S = SasResource;
using namespace rbac;

// One row per Operation, in enum order (checked below). Fields are named (designated
// initialisers, in the order of OperationTraits); a field a row leaves out has its default
// (false, empty, kOData, kNone, no RBAC actions).
constexpr std::array<OperationTraits, kOperationCount> kTraits = {{
    {.op = O::kQueryTables,
     .name = "QueryTables",
     .account_sas_resource = S::kContainer,
     .account_sas_any = "l",
     .rbac_needs = kTablesRead},
    {.op = O::kGetTable,
     .name = "GetTable",
     .account_sas_resource = S::kContainer,
     .account_sas_any = "l",
     .rbac_needs = kTablesRead},
    // Azure: spec §15 #6 — docs name `a` or `w` for Create Table, Azurite `c` or `w`: any of them.
    {.op = O::kCreateTable,
     .name = "CreateTable",
     .account_sas_resource = S::kContainer,
     .account_sas_any = "acw",
     .rbac_needs = kTablesWrite},
    {.op = O::kDeleteTable,
     .name = "DeleteTable",
     .account_sas_resource = S::kContainer,
     .account_sas_any = "d",
     .rbac_needs = kTablesDelete},
    {.op = O::kQueryEntities,
     .name = "QueryEntities",
     .reads_entities = true,
     .account_sas_resource = S::kObject,
     .account_sas_any = "r",
     .table_sas_allowed = true,
     .table_sas_needs = "r",
     .rbac_needs = kEntitiesRead},
    {.op = O::kGetEntity,
     .name = "GetEntity",
     .reads_entities = true,
     .route_names_partition = true,
     .account_sas_resource = S::kObject,
     .account_sas_any = "r",
     .table_sas_allowed = true,
     .table_sas_needs = "r",
     .rbac_needs = kEntitiesRead},
    {.op = O::kInsertEntity,
     .name = "InsertEntity",
     .writes_entity = true,
     .writes_entities = true,
     .batch_allowed = true,
     .account_sas_resource = S::kObject,
     .account_sas_any = "a",
     .table_sas_allowed = true,
     .table_sas_needs = "a",
     .rbac_needs = kEntitiesAdd},
    {.op = O::kUpdateEntity,
     .name = "UpdateEntity",
     .writes_entity = true,
     .writes_entities = true,
     .route_names_partition = true,
     .batch_allowed = true,
     .account_sas_resource = S::kObject,
     .account_sas_any = "u",
     .table_sas_allowed = true,
     .table_sas_needs = "u",
     .sas_checks_route_keys = true,
     .rbac_needs = kEntitiesUpdate},
    {.op = O::kMergeEntity,
     .name = "MergeEntity",
     .writes_entity = true,
     .writes_entities = true,
     .route_names_partition = true,
     .batch_allowed = true,
     .account_sas_resource = S::kObject,
     .account_sas_any = "u",
     .table_sas_allowed = true,
     .table_sas_needs = "u",
     .sas_checks_route_keys = true,
     .rbac_needs = kEntitiesUpdate},
    // Azure: spec §15 #7 — upserts need both add and update.
    {.op = O::kInsertOrReplaceEntity,
     .name = "InsertOrReplaceEntity",
     .writes_entity = true,
     .writes_entities = true,
     .route_names_partition = true,
     .batch_allowed = true,
     .account_sas_resource = S::kObject,
     .account_sas_all = "au",
     .table_sas_allowed = true,
     .table_sas_needs = "au",
     .sas_checks_route_keys = true,
     .rbac_needs = kEntitiesAdd | kEntitiesUpdate},
    {.op = O::kInsertOrMergeEntity,
     .name = "InsertOrMergeEntity",
     .writes_entity = true,
     .writes_entities = true,
     .route_names_partition = true,
     .batch_allowed = true,
     .account_sas_resource = S::kObject,
     .account_sas_all = "au",
     .table_sas_allowed = true,
     .table_sas_needs = "au",
     .sas_checks_route_keys = true,
     .rbac_needs = kEntitiesAdd | kEntitiesUpdate},
    {.op = O::kDeleteEntity,
     .name = "DeleteEntity",
     .writes_entity = true,
     .writes_entities = true,
     .route_names_partition = true,
     .batch_allowed = true,
     .account_sas_resource = S::kObject,
     .account_sas_any = "d",
     .table_sas_allowed = true,
     .table_sas_needs = "d",
     .sas_checks_route_keys = true,
     .rbac_needs = kEntitiesDelete},
    // Azure: spec §10.7 — no SAS may call the ACL operations; a bearer token needs the
    // getAcl/setAcl actions (§10.9), which no Table data role holds.
    {.op = O::kGetTableAcl, .name = "GetTableACL", .body = B::kXml, .rbac_needs = kTablesGetAcl},
    {.op = O::kSetTableAcl, .name = "SetTableACL", .body = B::kXml, .rbac_needs = kTablesSetAcl},
    {.op = O::kGetServiceProperties,
     .name = "GetTableServiceProperties",
     .body = B::kXml,
     .account_sas_resource = S::kService,
     .account_sas_any = "r",
     .rbac_needs = kServiceRead},
    {.op = O::kSetServiceProperties,
     .name = "SetTableServiceProperties",
     .body = B::kXml,
     .account_sas_resource = S::kService,
     .account_sas_any = "w",
     .rbac_needs = kServiceWrite},
    {.op = O::kGetServiceStats,
     .name = "GetTableServiceStats",
     .body = B::kXml,
     .account_sas_resource = S::kService,
     .account_sas_any = "r",
     .rbac_needs = kServiceRead},
    // $batch: each operation inside is authorised on its own (SAS permissions, RBAC actions).
    {.op = O::kBatch,
     .name = "EntityGroupTransaction",
     .body = B::kMultipart,
     .writes_entities = true,
     .account_sas_resource = S::kObject,
     .table_sas_allowed = true},
    {.op = O::kPreflight, .name = "Preflight", .body = B::kPreflight},
}};

// Row i is the row of the Operation whose value is i, and no row is missing: a row left out at the
// end would be value-initialised with op == kQueryTables and no name.
consteval bool InEnumOrder() {
  for (std::size_t i = 0; i < kTraits.size(); ++i) {
    if (static_cast<std::size_t>(kTraits[i].op) != i || kTraits[i].name.empty()) return false;
  }
  return true;
}
static_assert(InEnumOrder(), "kTraits: one row per Operation, in the order of enum Operation");

}  // namespace

const OperationTraits& TraitsOf(Operation op) { return kTraits[static_cast<std::size_t>(op)]; }

}  // namespace malachite
