#include "config/oauth_config.h"

#include "common/encoding.h"

namespace malachite {
namespace {

tl::unexpected<Error> Bad(std::string_view flag, std::string message) {
  return Fail(ErrorCode::kInvalidInput, std::string(flag) + ": " + message);
}

// "reader+account-contributor" -> the union of the roles' actions.
Result<RbacActions> ParseRoles(std::string_view flag, std::string_view text) {
  RbacActions actions = 0;
  while (true) {
    const std::size_t plus = text.find('+');
    const std::string_view name = TrimAsciiSpace(text.substr(0, plus));
    const BuiltInRole* role = FindBuiltInRole(name);
    if (role == nullptr) {
      return Bad(flag, "unknown role '" + std::string(name) +
                           "' (expected reader, contributor, account-contributor or an Azure "
                           "role name such as 'Storage Table Data Reader')");
    }
    actions |= role->actions;
    if (plus == std::string_view::npos) return actions;
    text.remove_prefix(plus + 1);
  }
}

}  // namespace

RbacActions OAuthConfig::ActionsOf(std::string_view principal) const {
  const RoleAssignment* everyone = nullptr;
  for (const RoleAssignment& entry : roles) {
    if (entry.principal == principal) return entry.actions;
    if (entry.principal == "*") everyone = &entry;
  }
  return everyone != nullptr ? everyone->actions : 0;
}

std::vector<RoleAssignment> OAuthConfig::DefaultRoles() {
  const BuiltInRole* contributor = FindBuiltInRole("contributor");
  return {RoleAssignment{"*", contributor->actions, std::string(contributor->name)}};
}

Result<std::vector<RoleAssignment>> ParseRoleAssignments(std::string_view flag,
                                                         std::string_view text) {
  std::vector<RoleAssignment> out;
  while (!text.empty()) {
    const std::size_t semi = text.find(';');
    const std::string_view entry = TrimAsciiSpace(text.substr(0, semi));
    text = semi == std::string_view::npos ? std::string_view{} : text.substr(semi + 1);
    if (entry.empty()) continue;
    const std::size_t eq = entry.find('=');
    const std::string_view principal = TrimAsciiSpace(entry.substr(0, eq));
    if (eq == std::string_view::npos || principal.empty()) {
      return Bad(flag, "entry '" + std::string(entry) + "' is not principal=role");
    }
    for (const RoleAssignment& seen : out) {
      if (seen.principal == principal) {
        return Bad(flag, "principal '" + std::string(principal) + "' is listed twice");
      }
    }
    const std::string_view roles = TrimAsciiSpace(entry.substr(eq + 1));
    auto actions = ParseRoles(flag, roles);
    if (!actions) return tl::unexpected(actions.error());
    out.push_back(RoleAssignment{std::string(principal), *actions, std::string(roles)});
  }
  if (out.empty()) return Bad(flag, "no principal=role entry");
  return out;
}

}  // namespace malachite
