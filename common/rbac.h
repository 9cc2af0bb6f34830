// Role-based access for requests authorized with a Microsoft Entra ID bearer token (spec §10.9):
// the Table service's RBAC actions as bit flags, and the built-in roles that grant them. The
// operation traits (operation.h) say which actions each operation needs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace malachite {

// A set of RBAC actions, one bit per action under Microsoft.Storage/storageAccounts/tableServices/.
using RbacActions = std::uint32_t;

namespace rbac {
inline constexpr RbacActions kServiceRead = 1u << 0;      // tableServices/read
inline constexpr RbacActions kServiceWrite = 1u << 1;     // tableServices/write
inline constexpr RbacActions kTablesRead = 1u << 2;       // tables/read
inline constexpr RbacActions kTablesWrite = 1u << 3;      // tables/write
inline constexpr RbacActions kTablesDelete = 1u << 4;     // tables/delete
inline constexpr RbacActions kTablesGetAcl = 1u << 5;     // tables/getAcl/action
inline constexpr RbacActions kTablesSetAcl = 1u << 6;     // tables/setAcl/action
inline constexpr RbacActions kEntitiesRead = 1u << 7;     // tables/entities/read
inline constexpr RbacActions kEntitiesAdd = 1u << 8;      // tables/entities/add/action
inline constexpr RbacActions kEntitiesUpdate = 1u << 9;   // tables/entities/update/action
inline constexpr RbacActions kEntitiesDelete = 1u << 10;  // tables/entities/delete
}  // namespace rbac

// True when `granted` holds every action of `needed` (an empty `needed` is always granted).
constexpr bool Grants(RbacActions granted, RbacActions needed) {
  return (granted & needed) == needed;
}

// A built-in Azure role as far as the Table service is concerned.
struct BuiltInRole {
  std::string_view name;        // Azure's name: "Storage Table Data Reader"
  std::string_view short_name;  // what a config file may write instead: "reader"
  RbacActions actions;
};

// Azure: spec §10.9 — Storage Table Data Reader, Storage Table Data Contributor and Storage
// Account Contributor. The span lives for the program.
std::span<const BuiltInRole> BuiltInRoles();

// The role called `name` (its Azure name or short name, ASCII case-insensitive), or nullptr.
const BuiltInRole* FindBuiltInRole(std::string_view name);

}  // namespace malachite
