// Azurite's table command line mapped onto ServerConfig: the binary run as `azurite-table` (a
// symlink's name) or as `malachite azurite-table ...` takes the flags and variables of Azurite's
// table service (npm azurite, src/table/TableEnvironment.ts), so a script, compose file or image
// that starts Azurite's table service starts Malachite instead, unchanged.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "config/server_config.h"

namespace malachite {

// The subdirectory of Azurite's workspace (-l/--location) that holds Malachite's LMDB files,
// beside Azurite's own __blobstorage__, __queuestorage__ and __azurite_db_*__.json.
inline constexpr std::string_view kAzuriteTableDataDir = "__malachite_table__";
// Azurite's table database in the workspace (LokiJS), which `malachite import --from-azurite`
// reads.
inline constexpr std::string_view kAzuriteTableDb = "__azurite_db_table__.json";

struct AzuriteTableArgs {
  ServerConfig config;
  // One line per flag accepted without effect or with a different meaning (logged at startup as
  // warnings): "--loose: ...".
  std::vector<std::string> warnings;
};

// True when `argv0`'s file name is "azurite-table".
bool IsAzuriteTableName(std::string_view argv0);

// Parses argv[first..argc) as Azurite's table options on top of the defaults, the MALACHITE_*
// environment and the MALACHITE_CONFIG file (ParseArgs with no flags). Options: --tableHost,
// --tablePort, --tableKeepAliveTimeout, -l/--location, -s/--silent, -L/--loose,
// --skipApiVersionCheck, --disableProductStyleUrl, --inMemoryPersistence, -d/--debug <file>,
// --oauth basic, --cert/--key/--pwd, --disableTelemetry, -h/--help, -v/--version; as
// `--name value` or `--name=value`. Variables: AZURITE_ACCOUNTS ("name:key1[:key2];..."; replaces
// devstoreaccount1 as in Azurite), AZURITE_SKIP_API_VERSION_CHECK=true. Sets azurite_lines.
// Fails with kInvalidInput and one line naming the flag or variable: an option of another
// Azurite service (--blobHost) or none at all, a missing or malformed value, a malformed
// AZURITE_ACCOUNTS, --inMemoryPersistence with --location (Azurite's own message).
Result<AzuriteTableArgs> ParseAzuriteTableArgs(int argc, const char* const* argv, int first,
                                               const char* const* envp);

// `azurite-table --help`: Azurite's table options and what each becomes here.
std::string AzuriteTableHelpText();

}  // namespace malachite
