// The subcommands' command lines: an option table per command (the same shape and --help
// layout as the server's, config/server_config.h), positional arguments, and the options every
// command shares to say where the data is (--data-dir, or an endpoint).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/connection_string.h"
#include "cli/table_target.h"
#include "common/error.h"

namespace malachite::cli {

struct CliOption {
  std::string_view name;        // without "--"
  std::string_view value_name;  // "<dir>"; empty for a switch
  std::string_view default_text;
  std::string_view help;  // lines separated by '\n'
  bool repeatable = false;
};

// The options that say where the data is: --data-dir, --connection-string, --endpoint,
// --account, --key, --sas.
const std::vector<CliOption>& LocationOptions();

struct CliArgs {
  std::map<std::string, std::vector<std::string>, std::less<>> values;  // switches: "1"
  std::vector<std::string> positional;

  bool Has(std::string_view name) const { return values.find(name) != values.end(); }
  // The last value of `name`, or `fallback`.
  std::string Get(std::string_view name, std::string fallback = {}) const;
  std::vector<std::string> All(std::string_view name) const;
};

// Parses argv[first..] against `options` (`--name value`, `--name=value`, bare switches; "-"
// is positional). Errors: kInvalidInput naming the flag (unknown, missing value, repeated).
Result<CliArgs> ParseCliArgs(int argc, const char* const* argv, int first,
                             const std::vector<CliOption>& options);

// "Usage: <usage>\n<description>\n\nOptions:\n" + the options as the server's --help lists them.
std::string CliHelp(std::string_view usage, std::string_view description,
                    const std::vector<CliOption>& options);

// Where the location options point: --data-dir (offline; account --account, default
// devstoreaccount1), else an endpoint from --connection-string (or MALACHITE_CONNECTION_STRING
// in `envp`), else --endpoint with --key/--sas (default: the well-known account and key), else
// UseDevelopmentStorage=true. Errors: kInvalidInput (bad connection string or URL, --data-dir
// with endpoint options), those of OpenStoreTarget.
Result<std::unique_ptr<TableTarget>> OpenTarget(const CliArgs& args, bool create,
                                                const char* const* envp);
// The endpoint the location options name (for online-only work such as /-/backup), or nullopt
// with --data-dir. Errors: as OpenTarget's.
Result<std::optional<TableEndpoint>> EndpointOf(const CliArgs& args, const char* const* envp);

}  // namespace malachite::cli
