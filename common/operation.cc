#include "common/operation.h"

#include <array>

namespace malachite {
namespace {

using B = OperationBody;
using S = SasResource;
using namespace rbac;

// One row per Operation, in enum order (checked below). Columns as in OperationTraits:
// name, body, reads_entities, writes_entity, writes_entities, route_names_partition,
// batch_allowed, account SAS (resource, any, all), table SAS (allowed, needs), RBAC actions.
constexpr std::array<OperationTraits, kOperationCount> kTraits = {{
    {"QueryTables", B::kOData, false, false, false, false, false, S::kContainer, "l", "", false, "",
     kTablesRead},
    {"GetTable", B::kOData, false, false, false, false, false, S::kContainer, "l", "", false, "",
     kTablesRead},
    // Azure: spec §15 #6 — docs name `a` or `w` for Create Table, Azurite `c` or `w`: any of them.
    {"CreateTable", B::kOData, false, false, false, false, false, S::kContainer, "acw", "", false,
     "", kTablesWrite},
    {"DeleteTable", B::kOData, false, false, false, false, false, S::kContainer, "d", "", false, "",
     kTablesDelete},
    {"QueryEntities", B::kOData, true, false, false, false, false, S::kObject, "r", "", true, "r",
     kEntitiesRead},
    {"GetEntity", B::kOData, true, false, false, true, false, S::kObject, "r", "", true, "r",
     kEntitiesRead},
    {"InsertEntity", B::kOData, false, true, true, false, true, S::kObject, "a", "", true, "a",
     kEntitiesAdd},
    {"UpdateEntity", B::kOData, false, true, true, true, true, S::kObject, "u", "", true, "u",
     kEntitiesUpdate},
    {"MergeEntity", B::kOData, false, true, true, true, true, S::kObject, "u", "", true, "u",
     kEntitiesUpdate},
    // Azure: spec §15 #7 — upserts need both add and update.
    {"InsertOrReplaceEntity", B::kOData, false, true, true, true, true, S::kObject, "", "au", true,
     "au", kEntitiesAdd | kEntitiesUpdate},
    {"InsertOrMergeEntity", B::kOData, false, true, true, true, true, S::kObject, "", "au", true,
     "au", kEntitiesAdd | kEntitiesUpdate},
    {"DeleteEntity", B::kOData, false, true, true, true, true, S::kObject, "d", "", true, "d",
     kEntitiesDelete},
    // Azure: spec §10.7 — no SAS may call the ACL operations; a bearer token needs the
    // getAcl/setAcl actions (§10.9), which no Table data role holds.
    {"GetTableACL", B::kXml, false, false, false, false, false, S::kNone, "", "", false, "",
     kTablesGetAcl},
    {"SetTableACL", B::kXml, false, false, false, false, false, S::kNone, "", "", false, "",
     kTablesSetAcl},
    {"GetTableServiceProperties", B::kXml, false, false, false, false, false, S::kService, "r", "",
     false, "", kServiceRead},
    {"SetTableServiceProperties", B::kXml, false, false, false, false, false, S::kService, "w", "",
     false, "", kServiceWrite},
    {"GetTableServiceStats", B::kXml, false, false, false, false, false, S::kService, "r", "",
     false, "", kServiceRead},
    {"EntityGroupTransaction", B::kMultipart, false, false, true, false, false, S::kObject, "", "",
     true, "", 0},
    {"Preflight", B::kPreflight, false, false, false, false, false, S::kNone, "", "", false, "", 0},
}};

constexpr bool InEnumOrder() {
  return kTraits[static_cast<std::size_t>(Operation::kQueryTables)].name == "QueryTables" &&
         kTraits[static_cast<std::size_t>(Operation::kGetEntity)].name == "GetEntity" &&
         kTraits[static_cast<std::size_t>(Operation::kDeleteEntity)].name == "DeleteEntity" &&
         kTraits[static_cast<std::size_t>(Operation::kGetServiceStats)].name ==
             "GetTableServiceStats" &&
         kTraits[static_cast<std::size_t>(Operation::kBatch)].name == "EntityGroupTransaction" &&
         kTraits[static_cast<std::size_t>(Operation::kPreflight)].name == "Preflight";
}
static_assert(InEnumOrder(), "kTraits rows must follow the order of enum Operation");

}  // namespace

const OperationTraits& TraitsOf(Operation op) { return kTraits[static_cast<std::size_t>(op)]; }

}  // namespace malachite
