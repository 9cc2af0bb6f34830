#include "common/rbac.h"

#include <array>

#include "common/encoding.h"

namespace malachite {
namespace {

using namespace rbac;

// Azure: spec §10.9 — the built-in role definitions, restricted to the Table service. The data
// roles hold no tableServices/ actions and no getAcl/setAcl: service properties, stats and table
// ACLs need a control-plane role such as Storage Account Contributor
// (Microsoft.Storage/storageAccounts/*), which in turn holds no data actions on entities.
constexpr std::array<BuiltInRole, 3> kRoles = {{
    {"Storage Table Data Reader", "reader", kTablesRead | kEntitiesRead},
    {"Storage Table Data Contributor", "contributor",
     kTablesRead | kTablesWrite | kTablesDelete | kEntitiesRead | kEntitiesAdd | kEntitiesUpdate |
         kEntitiesDelete},
    {"Storage Account Contributor", "account-contributor",
     kServiceRead | kServiceWrite | kTablesRead | kTablesWrite | kTablesDelete | kTablesGetAcl |
         kTablesSetAcl},
}};

}  // namespace

std::span<const BuiltInRole> BuiltInRoles() { return kRoles; }

const BuiltInRole* FindBuiltInRole(std::string_view name) {
  for (const BuiltInRole& role : kRoles) {
    if (AsciiIEquals(role.name, name) || AsciiIEquals(role.short_name, name)) return &role;
  }
  return nullptr;
}

}  // namespace malachite
