#include "cli/cli_args.h"

#include <algorithm>

#include "common/environment.h"
#include "config/server_config.h"

namespace malachite::cli {

const std::vector<CliOption>& LocationOptions() {
  static const std::vector<CliOption> options = {
      {"data-dir", "<dir>", "",
       "work offline on a stopped server's data directory (a running\n"
       "server's directory is refused: it holds the lock)"},
      {"connection-string", "<cs>", "UseDevelopmentStorage=true",
       "the endpoint and credentials (AccountKey or SharedAccessSignature);\n"
       "env MALACHITE_CONNECTION_STRING; any endpoint, Azure included"},
      {"endpoint", "<url>", "http://127.0.0.1:10002/devstoreaccount1",
       "a Table endpoint URL (the account is its first path segment)"},
      {"account", "<name>", "devstoreaccount1",
       "the account (offline; or with a host-style --endpoint)"},
      {"key", "<base64>", "the well-known key", "the account key for --endpoint"},
      {"sas", "<token>", "", "a SAS token for --endpoint instead of a key"},
  };
  return options;
}

std::string CliArgs::Get(std::string_view name, std::string fallback) const {
  auto it = values.find(name);
  return it == values.end() || it->second.empty() ? fallback : it->second.back();
}

std::vector<std::string> CliArgs::All(std::string_view name) const {
  auto it = values.find(name);
  return it == values.end() ? std::vector<std::string>{} : it->second;
}

Result<CliArgs> ParseCliArgs(int argc, const char* const* argv, int first,
                             const std::vector<CliOption>& options) {
  CliArgs args;
  for (int i = first; i < argc; ++i) {
    std::string_view arg(argv[i]);
    if (arg == "-h") arg = "--help";
    if (!arg.starts_with("--")) {
      args.positional.emplace_back(arg);
      continue;
    }
    const std::size_t eq = arg.find('=');
    const std::string_view name = arg.substr(2, eq == std::string_view::npos ? eq : eq - 2);
    auto option = std::find_if(options.begin(), options.end(),
                               [&](const CliOption& o) { return o.name == name; });
    if (option == options.end()) {
      return Fail(ErrorCode::kInvalidInput,
                  "unknown option '--" + std::string(name) + "' (try --help)");
    }
    std::string value = "1";
    if (eq != std::string_view::npos) {
      value = std::string(arg.substr(eq + 1));
    } else if (!option->value_name.empty()) {
      if (i + 1 >= argc) {
        return Fail(ErrorCode::kInvalidInput, "option '--" + std::string(name) + "' needs a value");
      }
      value = argv[++i];
    }
    auto& slot = args.values[std::string(name)];
    if (!slot.empty() && !option->repeatable) {
      return Fail(ErrorCode::kInvalidInput, "option '--" + std::string(name) + "' given twice");
    }
    slot.push_back(std::move(value));
  }
  return args;
}

std::string CliHelp(std::string_view usage, std::string_view description,
                    const std::vector<CliOption>& options) {
  std::vector<OptionHelp> helps;
  for (const CliOption& o : options) {
    helps.push_back(OptionHelp{"--" + std::string(o.name), std::string(o.value_name),
                               std::string(o.default_text), std::string(o.help), ""});
  }
  return "Usage: " + std::string(usage) + "\n" + std::string(description) + "\n\nOptions:\n" +
         FormatOptionHelps(helps);
}

Result<std::optional<TableEndpoint>> EndpointOf(const CliArgs& args, const char* const* envp) {
  const bool online =
      args.Has("connection-string") || args.Has("endpoint") || args.Has("key") || args.Has("sas");
  if (args.Has("data-dir")) {
    if (online) {
      return Fail(
          ErrorCode::kInvalidInput,
          "--data-dir (offline) and --connection-string/--endpoint (online) exclude each other");
    }
    return std::optional<TableEndpoint>();
  }
  Result<TableEndpoint> endpoint;
  std::optional<std::string_view> env = FindEnv(envp, "MALACHITE_CONNECTION_STRING");
  if (args.Has("connection-string")) {
    endpoint = ParseConnectionString(args.Get("connection-string"));
  } else if (args.Has("endpoint")) {
    const bool sas = args.Has("sas");
    endpoint =
        EndpointFromUrl(args.Get("endpoint"), args.Get("account"),
                        sas ? "" : args.Get("key", std::string(kDevAccountKey)), args.Get("sas"));
  } else if (env) {
    endpoint = ParseConnectionString(*env);
  } else {
    endpoint = ParseConnectionString("UseDevelopmentStorage=true");
  }
  if (!endpoint) return tl::unexpected(endpoint.error());
  return std::optional<TableEndpoint>(std::move(*endpoint));
}

Result<std::unique_ptr<TableTarget>> OpenTarget(const CliArgs& args, bool create,
                                                const char* const* envp) {
  auto endpoint = EndpointOf(args, envp);
  if (!endpoint) return tl::unexpected(endpoint.error());
  if (*endpoint) return OpenHttpTarget(**endpoint);
  return OpenStoreTarget(args.Get("data-dir"), args.Get("account", std::string(kDevAccountName)),
                         create);
}

}  // namespace malachite::cli
