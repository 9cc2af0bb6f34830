#include "common/operation.h"

#include <array>

namespace malachite {
namespace {

using B = OperationBody;
using S = SasResource;

// One row per Operation, in enum order (checked below). Columns as in OperationTraits:
// name, body, reads_entities, writes_entity, writes_entities, route_names_partition,
// batch_allowed, account SAS (resource, any, all), table SAS (allowed, needs).
constexpr std::array<OperationTraits, kOperationCount> kTraits = {{
    {"QueryTables", B::kOData, false, false, false, false, false, S::kContainer, "l", "", false, ""},
    {"GetTable", B::kOData, false, false, false, false, false, S::kContainer, "l", "", false, ""},
    // Azure: spec §15 #6 — docs name `a` or `w` for Create Table, Azurite `c` or `w`: any of them.
    {"CreateTable", B::kOData, false, false, false, false, false, S::kContainer, "acw", "", false,
     ""},
    {"DeleteTable", B::kOData, false, false, false, false, false, S::kContainer, "d", "", false, ""},
    {"QueryEntities", B::kOData, true, false, false, false, false, S::kObject, "r", "", true, "r"},
    {"GetEntity", B::kOData, true, false, false, true, false, S::kObject, "r", "", true, "r"},
    {"InsertEntity", B::kOData, false, true, true, false, true, S::kObject, "a", "", true, "a"},
    {"UpdateEntity", B::kOData, false, true, true, true, true, S::kObject, "u", "", true, "u"},
    {"MergeEntity", B::kOData, false, true, true, true, true, S::kObject, "u", "", true, "u"},
    // Azure: spec §15 #7 — upserts need both add and update.
    {"InsertOrReplaceEntity", B::kOData, false, true, true, true, true, S::kObject, "", "au", true,
     "au"},
    {"InsertOrMergeEntity", B::kOData, false, true, true, true, true, S::kObject, "", "au", true,
     "au"},
    {"DeleteEntity", B::kOData, false, true, true, true, true, S::kObject, "d", "", true, "d"},
    // Azure: spec §10.7 — ACL operations are for the account owner only.
    {"GetTableACL", B::kXml, false, false, false, false, false, S::kNone, "", "", false, ""},
    {"SetTableACL", B::kXml, false, false, false, false, false, S::kNone, "", "", false, ""},
    {"GetTableServiceProperties", B::kXml, false, false, false, false, false, S::kService, "r", "",
     false, ""},
    {"SetTableServiceProperties", B::kXml, false, false, false, false, false, S::kService, "w", "",
     false, ""},
    {"GetTableServiceStats", B::kXml, false, false, false, false, false, S::kService, "r", "",
     false, ""},
    {"EntityGroupTransaction", B::kMultipart, false, false, true, false, false, S::kObject, "", "",
     true, ""},
    {"Preflight", B::kPreflight, false, false, false, false, false, S::kNone, "", "", false, ""},
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
