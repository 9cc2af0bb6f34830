// --host-style and the --oauth options: defaults, the three sources, the role list's grammar and
// the one-line errors.
#include "config/oauth_config.h"

#include <catch2/catch.hpp>
#include <vector>

#include "config/server_config.h"

namespace malachite {
namespace {

Result<ServerConfig> Parse(std::vector<const char*> args, std::vector<const char*> env = {}) {
  args.insert(args.begin(), "malachite");
  env.push_back(nullptr);
  return ParseArgs(static_cast<int>(args.size()), args.data(), env.data());
}

std::string Refusal(std::vector<const char*> args, std::vector<const char*> env = {}) {
  auto config = Parse(std::move(args), std::move(env));
  return config ? std::string("ok") : config.error().message;
}

// "principal=actions(hex)/roles;..."
std::string Dump(const std::vector<RoleAssignment>& roles) {
  std::string out;
  for (const RoleAssignment& entry : roles) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "%03x", entry.actions);
    out += entry.principal + "=" + hex + "/" + entry.roles + ";";
  }
  return out;
}

}  // namespace

TEST_CASE("oauth config: off by default, host style on, everyone a Table Data Contributor",
          "[config]") {
  auto config = Parse({});
  REQUIRE(config);
  CHECK(config->host_style);
  CHECK_FALSE(config->oauth.enabled);
  CHECK(config->oauth.issuer_keys_file.empty());
  CHECK(config->oauth.tenant.empty());
  CHECK(Dump(config->oauth.roles) == "*=79c/Storage Table Data Contributor;");
  CHECK(config->oauth.ActionsOf("anyone") == FindBuiltInRole("contributor")->actions);
}

TEST_CASE("oauth config: flags, MALACHITE_* variables and the config file set every option",
          "[config]") {
  auto config = Parse({"--cert", "c.pem", "--key", "k.pem", "--oauth", "--host-style", "off",
                       "--oauth-tenant", "72F988BF-86F1-41AF-91AB-2D7CD011DB47",
                       "--oauth-issuer-keys", "keys.json", "--oauth-roles",
                       " a1 = reader ; *=Storage Table Data Reader+account-contributor"});
  REQUIRE(config);
  CHECK(config->oauth.enabled);
  CHECK_FALSE(config->host_style);
  CHECK(config->oauth.tenant == "72f988bf-86f1-41af-91ab-2d7cd011db47");
  CHECK(config->oauth.issuer_keys_file == "keys.json");
  CHECK(Dump(config->oauth.roles) ==
        "a1=084/reader;*=0ff/Storage Table Data Reader+account-contributor;");
  CHECK(config->oauth.ActionsOf("a1") == FindBuiltInRole("reader")->actions);

  auto from_env = Parse(
      {"--cert", "c.pem", "--key", "k.pem"},
      {"MALACHITE_OAUTH=1", "MALACHITE_HOST_STYLE=off", "MALACHITE_OAUTH_ROLES=x=contributor"});
  REQUIRE(from_env);
  CHECK(from_env->oauth.enabled);
  CHECK_FALSE(from_env->host_style);
  CHECK(Dump(from_env->oauth.roles) == "x=79c/contributor;");
  // Without a '*' entry, principals not listed hold no role.
  CHECK(from_env->oauth.ActionsOf("y") == 0);
}

TEST_CASE("oauth config: bad values are refused with a one-line reason", "[config]") {
  CHECK(Refusal({"--oauth"}) == "--oauth needs --cert and --key (bearer tokens over HTTPS only)");
  CHECK(Refusal({"--oauth-tenant", "contoso"}) ==
        "invalid value 'contoso' for --oauth-tenant (expected a tenant GUID)");
  CHECK(Refusal({"--host-style", "maybe"}) ==
        "invalid value 'maybe' for --host-style (expected 1, 0, true, false, on or off)");
  CHECK(Refusal({"--oauth-roles", "a=owner"}) ==
        "--oauth-roles: unknown role 'owner' (expected reader, contributor, "
        "account-contributor or an Azure role name such as 'Storage Table Data Reader')");
  CHECK(Refusal({"--oauth-roles", "a=reader;a=contributor"}) ==
        "--oauth-roles: principal 'a' is listed twice");
  CHECK(Refusal({"--oauth-roles", "reader"}) ==
        "--oauth-roles: entry 'reader' is not principal=role");
  CHECK(Refusal({"--oauth-roles", "=reader"}) ==
        "--oauth-roles: entry '=reader' is not principal=role");
  CHECK(Refusal({"--oauth-roles", " ; "}) == "--oauth-roles: no principal=role entry");
  CHECK(Refusal({"--oauth-roles", "a=reader+"}) ==
        "--oauth-roles: unknown role '' (expected reader, contributor, account-contributor or an "
        "Azure role name such as 'Storage Table Data Reader')");
  CHECK(
      Refusal({}, {"MALACHITE_OAUTH_ROLES=a=owner"}).starts_with("MALACHITE_OAUTH_ROLES: unknown"));
}

TEST_CASE("oauth config: --help lists the options with their defaults", "[config]") {
  const std::string help = HelpText();
  for (std::string_view text :
       {"--host-style on|off", "--oauth ", "--oauth-issuer-keys <file>", "--oauth-tenant <guid>",
        "--oauth-roles <list>", "MALACHITE_OAUTH_ROLES", "default *=contributor"}) {
    INFO(text);
    CHECK(help.find(text) != std::string::npos);
  }
}

}  // namespace malachite
