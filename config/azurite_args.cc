#include "config/azurite_args.h"

#include <filesystem>
#include <optional>

#include "common/encoding.h"
#include "common/environment.h"
#include "common/utf8_path.h"

namespace malachite {

namespace {

// Azurite's other services' options: named in the refusal, since a table-only server cannot
// honour them (the compatibility image's `azurite` passes them to Azurite itself).
constexpr std::string_view kOtherServiceFlags[] = {
    "blobHost",         "blobPort",  "blobKeepAliveTimeout",
    "queueHost",        "queuePort", "queueKeepAliveTimeout",
    "extentMemoryLimit"};

// What the options said before they are mapped (some depend on each other: --pwd on --cert,
// --inMemoryPersistence on --location).
struct AzuriteFlags {
  std::optional<std::string> host;
  std::optional<std::string> port;
  std::optional<std::string> keep_alive;
  std::optional<std::string> location;
  std::optional<std::string> debug;
  std::optional<std::string> oauth;
  std::optional<std::string> cert;
  std::optional<std::string> key;
  std::optional<std::string> pwd;
  bool silent = false;
  bool loose = false;
  bool skip_api_version_check = false;
  bool disable_product_style_url = false;
  bool in_memory = false;
  bool disable_telemetry = false;
  bool help = false;
  bool version = false;
};

struct AzuriteOption {
  std::string_view name;        // as after "--"
  char short_name;              // as after "-"; 0: none
  std::string_view value_name;  // empty: a switch
  std::string_view help;        // Azurite's meaning, then what Malachite does
  std::optional<std::string> AzuriteFlags::*value = nullptr;
  bool AzuriteFlags::*flag = nullptr;
};

using F = AzuriteFlags;
const AzuriteOption kAzuriteOptions[] = {
    {"tableHost", 0, "<addr>", "address to listen on (default 127.0.0.1): --host", &F::host},
    {"tablePort", 0, "<n>", "port (default 10002; 0 picks a free one): --port", &F::port},
    {"tableKeepAliveTimeout", 0, "<s>", "keep-alive idle seconds: --request-timeout",
     &F::keep_alive},
    {"location", 'l', "<dir>",
     "workspace (default: the working directory); Malachite's data goes\n"
     "in <dir>/__malachite_table__: --data-dir",
     &F::location},
    {"silent", 's', "", "no access log on the console: --access-log-level debug (else info)",
     nullptr, &F::silent},
    {"loose", 'L', "",
     "ignore unsupported headers and parameters: Malachite does already;\n"
     "authentication stays on, as in Azurite",
     nullptr, &F::loose},
    {"skipApiVersionCheck", 0, "", "any x-ms-version: --skip-api-version-check", nullptr,
     &F::skip_api_version_check},
    {"disableProductStyleUrl", 0, "", "account from the path only: --host-style off", nullptr,
     &F::disable_product_style_url},
    {"inMemoryPersistence", 0, "", "keep nothing on disk: --in-memory", nullptr, &F::in_memory},
    {"debug", 'd', "<file>", "debug log to <file>: --debug-log", &F::debug},
    {"oauth", 0, "basic", "accept bearer tokens (HTTPS only): --oauth", &F::oauth},
    {"cert", 0, "<file>", "certificate, PEM (with --key) or PFX (with --pwd): --cert", &F::cert},
    {"key", 0, "<file>", "PEM private key of --cert: --key", &F::key},
    {"pwd", 0, "<pw>", "password of a PFX --cert: --cert-password", &F::pwd},
    {"disableTelemetry", 0, "", "no telemetry: Malachite collects none", nullptr,
     &F::disable_telemetry},
    {"help", 'h', "", "print this help and exit", nullptr, &F::help},
    {"version", 'v', "", "print the version and exit", nullptr, &F::version},
};

const AzuriteOption* FindLong(std::string_view name) {
  for (const AzuriteOption& option : kAzuriteOptions) {
    if (option.name == name) return &option;
  }
  return nullptr;
}

const AzuriteOption* FindShort(char name) {
  for (const AzuriteOption& option : kAzuriteOptions) {
    if (option.short_name == name) return &option;
  }
  return nullptr;
}

Error Refuse(std::string message) {
  return Error{ErrorCode::kInvalidInput, std::move(message), {}};
}

Result<void> ReadFlags(int argc, const char* const* argv, int first, AzuriteFlags& flags) {
  for (int i = first; i < argc; ++i) {
    std::string_view arg(argv[i]);
    const AzuriteOption* option = nullptr;
    std::string_view shown = arg;  // the option as the user wrote it, for messages
    std::optional<std::string_view> inline_value;
    if (arg.size() > 2 && arg.substr(0, 2) == "--") {
      std::string_view name = arg.substr(2);
      if (std::size_t eq = name.find('='); eq != std::string_view::npos) {
        inline_value = name.substr(eq + 1);
        name = name.substr(0, eq);
        shown = arg.substr(0, eq + 2);
      }
      option = FindLong(name);
      if (option == nullptr) {
        for (std::string_view other : kOtherServiceFlags) {
          if (name == other) {
            return tl::unexpected(
                Refuse("azurite-table: " + std::string(shown) +
                       " is an option of Azurite's blob or queue service; azurite-table serves "
                       "tables only (the compatibility image's `azurite` command takes it)"));
          }
        }
      }
    } else if (arg.size() == 2 && arg[0] == '-' && arg[1] != '-') {
      option = FindShort(arg[1]);
    } else {
      return tl::unexpected(Refuse("azurite-table: unexpected argument '" + std::string(arg) +
                                   "' (options start with --; see --help)"));
    }
    if (option == nullptr) {
      // Azurite (npm "args"): 'The option "X" is unknown.' Emulator: exit 2, not Azurite's 0
      // after its usage text, so a container with a typo does not look like a clean stop.
      return tl::unexpected(Refuse("azurite-table: The option \"" + std::string(shown) +
                                   "\" is unknown (see --help)"));
    }
    if (option->value_name.empty()) {
      if (inline_value && *inline_value != "true") {
        return tl::unexpected(Refuse("azurite-table: " + std::string(shown) + " takes no value"));
      }
      flags.*(option->flag) = true;
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argc || std::string_view(argv[i + 1]).substr(0, 1) == "-") {
        // Azurite: "Must provide a debug log file path for parameter -d or --debug" and the like.
        return tl::unexpected(Refuse("azurite-table: " + std::string(shown) + " needs a value " +
                                     std::string(option->value_name)));
      }
      inline_value = argv[++i];
    }
    flags.*(option->value) = std::string(*inline_value);
  }
  return {};
}

// Maps what the flags said onto `out.config`, with a warning for what has no effect here.
Result<void> Apply(const AzuriteFlags& flags, const char* const* envp, AzuriteTableArgs& out) {
  ServerConfig& config = out.config;
  // The address, port and keep-alive are Malachite's own options under Azurite's names: the
  // option table checks them and words the refusal.
  auto same_option = [&](const std::optional<std::string>& value, std::string_view name,
                         std::string_view azurite_flag) -> Result<void> {
    if (!value) return {};
    if (auto ok = ApplyOption(config, name, *value, azurite_flag); !ok) {
      return tl::unexpected(Refuse("azurite-table: " + ok.error().message));
    }
    return {};
  };
  if (auto ok = same_option(flags.host, "host", "--tableHost"); !ok) return ok;
  if (auto ok = same_option(flags.port, "port", "--tablePort"); !ok) return ok;
  if (auto ok = same_option(flags.keep_alive, "request-timeout", "--tableKeepAliveTimeout"); !ok) {
    return ok;
  }
  if (flags.in_memory && flags.location) {
    // Azurite's own refusal, word for word (TableEnvironment.inMemoryPersistence).
    return tl::unexpected(Refuse(
        "azurite-table: The --inMemoryPersistence option is not supported when the --location "
        "option is set."));
  }
  config.in_memory = config.in_memory || flags.in_memory;
  // Azurite: the workspace defaults to the working directory, created if missing.
  std::error_code ec;
  // Names in UTF-8 (common/utf8_path.h): a std::string path is the ANSI code page's on Windows.
  std::filesystem::path location =
      flags.location ? Utf8Path(*flags.location) : std::filesystem::current_path(ec);
  config.data_dir = PathUtf8(location / kAzuriteTableDataDir);
  if (!config.in_memory && std::filesystem::exists(location / kAzuriteTableDb, ec) &&
      !std::filesystem::exists(location / kAzuriteTableDataDir / "data.mdb", ec)) {
    out.warnings.push_back(
        "the workspace holds Azurite's table data (" + PathUtf8(location / kAzuriteTableDb) +
        "), which Malachite does not read in place: copy it in once with `malachite import "
        "--from-azurite " +
        PathUtf8(location / kAzuriteTableDb) + " --data-dir " + config.data_dir +
        "` while the server is stopped");
  }
  // Azurite shows its access log on the console unless --silent (then at debug: in -d only).
  config.access_log_level = flags.silent ? "debug" : "info";
  if (flags.loose) {
    out.warnings.push_back(
        "--loose: no effect; Malachite ignores unsupported headers and parameters anyway, and "
        "authentication stays on (as in Azurite)");
  }
  // Azurite: the flag, or exactly "true" in AZURITE_SKIP_API_VERSION_CHECK.
  auto skip = FindEnv(envp, "AZURITE_SKIP_API_VERSION_CHECK");
  if (flags.skip_api_version_check || (skip && *skip == "true")) {
    config.skip_api_version_check = true;
  }
  if (flags.disable_product_style_url) config.host_style = false;
  if (flags.debug) {
    if (flags.debug->empty()) {
      return tl::unexpected(
          Refuse("azurite-table: Must provide a debug log file path for parameter -d or --debug"));
    }
    config.debug_log_file = *flags.debug;
  }
  if (flags.disable_telemetry) {
    out.warnings.push_back("--disableTelemetry: no effect; Malachite collects no telemetry");
  }
  // Azurite (ConfigurationBase.hasCert): --cert with --key is PEM, --cert with --pwd is PFX, and
  // anything else serves plain HTTP.
  if (flags.cert && !flags.cert->empty() && flags.key && !flags.key->empty()) {
    config.cert_file = *flags.cert;
    config.key_file = *flags.key;
  } else if (flags.cert && !flags.cert->empty() && flags.pwd && !flags.pwd->empty()) {
    config.cert_file = *flags.cert;
    config.cert_password = *flags.pwd;
  } else if (flags.cert || flags.key || flags.pwd) {
    out.warnings.push_back(
        "--cert needs --key (PEM) or --pwd (PFX); without them Azurite serves plain HTTP, and "
        "so does this");
  }
  if (flags.oauth) {
    // Azurite: only "basic" (any case) turns OAuth on; another value is ignored.
    if (AsciiLower(*flags.oauth) != "basic") {
      out.warnings.push_back("--oauth " + *flags.oauth +
                             ": no effect (Azurite knows only 'basic')");
    } else if (config.cert_file.empty()) {
      out.warnings.push_back(
          "--oauth basic: no effect without --cert (bearer tokens travel over HTTPS only)");
    } else {
      config.oauth.enabled = true;
    }
  }
  // Azurite: AZURITE_ACCOUNTS replaces the default account (devstoreaccount1 answers only if
  // listed).
  if (auto accounts = FindEnv(envp, "AZURITE_ACCOUNTS"); accounts && !accounts->empty()) {
    std::vector<AccountConfig> listed;
    if (auto ok = ParseAccounts(listed, "AZURITE_ACCOUNTS", *accounts); !ok) {
      return tl::unexpected(Refuse("azurite-table: " + ok.error().message));
    }
    if (listed.empty()) {
      return tl::unexpected(Refuse("azurite-table: AZURITE_ACCOUNTS lists no account"));
    }
    config.accounts = std::move(listed);
  }
  config.azurite_lines = true;
  config.help = flags.help;
  config.version = flags.version;
  return {};
}

}  // namespace

bool IsAzuriteTableName(std::string_view argv0) {
  const std::size_t slash = argv0.rfind('/');
  return argv0.substr(slash == std::string_view::npos ? 0 : slash + 1) == "azurite-table";
}

Result<AzuriteTableArgs> ParseAzuriteTableArgs(int argc, const char* const* argv, int first,
                                               const char* const* envp) {
  // The defaults, MALACHITE_* variables and the MALACHITE_CONFIG file, with no flags.
  const char* const program[] = {"azurite-table", nullptr};
  auto base = ParseArgs(1, program, envp);
  if (!base) return tl::unexpected(base.error());
  AzuriteTableArgs out{std::move(*base), {}};
  AzuriteFlags flags;
  if (auto ok = ReadFlags(argc, argv, first, flags); !ok) return tl::unexpected(ok.error());
  if (auto ok = Apply(flags, envp, out); !ok) return tl::unexpected(ok.error());
  if (auto ok = CheckConfig(out.config); !ok) {
    return tl::unexpected(Refuse("azurite-table: " + ok.error().message));
  }
  return out;
}

std::string AzuriteTableHelpText() {
  std::vector<OptionHelp> options;
  for (const AzuriteOption& option : kAzuriteOptions) {
    std::string flag = "--" + std::string(option.name);
    if (option.short_name != 0) flag = "-" + std::string(1, option.short_name) + ", " + flag;
    options.push_back({flag, std::string(option.value_name), "", std::string(option.help), ""});
  }
  return "Usage: azurite-table [options]\n"
         "Malachite " +
         std::string(kMalachiteVersion) +
         " serving Azure Table storage with Azurite's table command line.\n"
         "\n"
         "Options (Azurite's, and what each becomes in Malachite's own terms):\n" +
         FormatOptionHelps(options) +
         "\n"
         "Environment: AZURITE_ACCOUNTS=\"name:key1[:key2];...\" (replaces devstoreaccount1, as\n"
         "in Azurite), AZURITE_SKIP_API_VERSION_CHECK=true, and every MALACHITE_* variable of\n"
         "`malachite --help`.\n";
}

}  // namespace malachite
