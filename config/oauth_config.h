// OAuthConfig: whether Microsoft Entra ID bearer tokens are accepted, how they are checked and
// which roles their principals hold (spec §10.9). ServerConfig holds one; its option table
// (server_config.cc) fills it from --oauth, --oauth-issuer-keys, --oauth-tenant and --oauth-roles.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "common/rbac.h"

namespace malachite {

// One principal's roles: `principal` is a token's `oid` claim, or "*" for every principal not
// listed by its oid.
struct RoleAssignment {
  std::string principal;
  RbacActions actions = 0;  // the union of the roles' actions
  std::string roles;        // the roles as written, for the startup banner
};

struct OAuthConfig {
  // --oauth: accept `Authorization: Bearer <JWT>` (HTTPS only: ParseArgs requires --cert).
  // Default off: a bearer token is then an unknown Authorization scheme.
  bool enabled = false;
  // --oauth-issuer-keys FILE: a JWKS document ({"keys":[...]}, RSA and P-256 keys) whose keys
  // must have signed every token. Empty: tokens are decoded and checked but their signatures
  // are not verified.
  std::string issuer_keys_file;
  // --oauth-tenant GUID: the Entra ID tenant of the emulated accounts; tokens from another tenant
  // fail issuer validation and the bearer challenge names this tenant. Empty: any tenant.
  std::string tenant;
  // --oauth-roles 'oid=role[+role];*=role': the roles of each principal (role: reader,
  // contributor, account-contributor or the Azure role names). Default: everyone is a
  // Storage Table Data Contributor. A principal matching no entry holds no role.
  std::vector<RoleAssignment> roles = DefaultRoles();

  // The RBAC actions of `principal` (its entry, else the "*" entry, else none).
  RbacActions ActionsOf(std::string_view principal) const;
  static std::vector<RoleAssignment> DefaultRoles();
};

// Parses --oauth-roles text ('oid=role[+role];...', whitespace around items ignored). Errors:
// kInvalidInput with a one-line message naming `flag` (empty entry name, unknown role, a
// principal listed twice, nothing at all).
Result<std::vector<RoleAssignment>> ParseRoleAssignments(std::string_view flag,
                                                         std::string_view text);

}  // namespace malachite
