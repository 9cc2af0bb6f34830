#include "config/server_config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/encoding.h"
#include "common/environment.h"
#include "common/utf8_path.h"

namespace malachite {

const std::string_view kMalachiteVersion = MALACHITE_VERSION;

namespace {

constexpr std::string_view kLogLevels[] = {"trace", "debug",    "info", "warn",
                                           "error", "critical", "off"};

// One option of the table below: `name` is the flag without "--", the config-file key, and (upper
// case, '-' -> '_', after "MALACHITE_") the environment variable. A switch (empty value_name)
// takes no value on the command line and 1/0/true/false/on/off elsewhere.
struct Option {
  std::string_view name;
  std::string_view value_name;
  std::string_view default_text;  // empty: no default worth printing
  std::string_view help;          // lines separated by '\n'
  Result<void> (*apply)(ServerConfig& config, std::string_view flag, std::string_view value);
  bool command_line_only = false;  // not read from the environment or a config file
  bool hidden = false;             // not in --help (build and test plumbing)
};

Error BadValue(std::string_view flag, std::string_view value, std::string_view expected) {
  return Error{ErrorCode::kInvalidInput,
               "invalid value '" + std::string(value) + "' for " + std::string(flag) +
                   " (expected " + std::string(expected) + ")",
               {}};
}

template <typename T>
Result<T> ParseNumber(std::string_view flag, std::string_view text, T min, T max) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return tl::unexpected(
        BadValue(flag, text, "an integer in " + std::to_string(min) + ".." + std::to_string(max)));
  }
  return value;
}

// Parses into `out` and converts to `Field` (e.g. unsigned -> std::uint16_t).
template <typename T, typename Field>
Result<void> SetNumber(Field& out, std::string_view flag, std::string_view text, T min, T max) {
  auto value = ParseNumber<T>(flag, text, min, max);
  if (!value) return tl::unexpected(value.error());
  out = static_cast<Field>(*value);
  return {};
}

Result<void> SetSwitch(bool& out, std::string_view flag, std::string_view text) {
  if (text.empty() || text == "1" || text == "true" || text == "on") {
    out = true;
  } else if (text == "0" || text == "false" || text == "off") {
    out = false;
  } else {
    return tl::unexpected(BadValue(flag, text, "1, 0, true, false, on or off"));
  }
  return {};
}

Result<void> SetNonEmpty(std::string& out, std::string_view flag, std::string_view text) {
  if (text.empty()) {
    return Fail(ErrorCode::kInvalidInput, std::string(flag) + " needs a non-empty value");
  }
  out = std::string(text);
  return {};
}

Result<void> SetLevel(std::string& out, std::string_view flag, std::string_view text) {
  if (std::find(std::begin(kLogLevels), std::end(kLogLevels), text) == std::end(kLogLevels)) {
    return tl::unexpected(BadValue(flag, text, "trace, debug, info, warn, error, critical, off"));
  }
  out = std::string(text);
  return {};
}

Result<void> CheckKey(std::string_view flag, std::string_view account, std::string_view key) {
  auto raw = Base64Decode(key);
  if (!raw || raw->empty()) {
    return Fail(ErrorCode::kInvalidInput, std::string(flag) + ": the key of account '" +
                                              std::string(account) + "' is not base64");
  }
  return {};
}

void UpsertAccount(std::vector<AccountConfig>& accounts, AccountConfig account) {
  for (auto& existing : accounts) {
    if (existing.name == account.name) {
      existing = std::move(account);
      return;
    }
  }
  accounts.push_back(std::move(account));
}

using C = ServerConfig;
using V = std::string_view;

// Every option, in --help order. Throttling and fault options live in throttle_config.h and are
// listed after these.
const Option kOptions[] = {
    {"config", "<file>", "", "read options from <file>: 'name = value' lines, '#' comments",
     [](C& c, V f, V v) { return SetNonEmpty(c.config_file, f, v); }},
    {"host", "<addr>", "127.0.0.1", "address to listen on (0.0.0.0: every interface)",
     [](C& c, V f, V v) { return SetNonEmpty(c.host, f, v); }},
    {"port", "<n>", "10002", "TCP port; 0 picks a free one and prints it on stdout",
     [](C& c, V f, V v) { return SetNumber<unsigned>(c.port, f, v, 0, 65535); }},
    {"data-dir", "<dir>", "./data", "where the LMDB environment lives (created if missing)",
     [](C& c, V f, V v) { return SetNonEmpty(c.data_dir, f, v); }},
    {"seed", "<dir>", "",
     "fixtures: load every <table>.jsonl/.csv file of <dir> (and <dir>/<account>/)\n"
     "into its table on the first start of an empty data dir; POST /-/reset\n"
     "restores them",
     [](C& c, V f, V v) { return SetNonEmpty(c.seed_dir, f, v); }},
    {"in-memory", "", "off",
     "data in a temp dir on /dev/shm (else $TMPDIR), unlinked once open:\n"
     "nothing is left behind, even after kill -9; ignores --data-dir",
     [](C& c, V f, V v) { return SetSwitch(c.in_memory, f, v); }},
    {"accounts", "<list>", "",
     "extra accounts 'name:key[:key2];name2:key' (base64 keys);\n"
     "devstoreaccount1 with the well-known key is always there",
     [](C& c, V f, V v) { return ParseAccounts(c.accounts, f, v); }},
    {"loose", "", "off",
     "accept requests without valid authentication and with any or no\n"
     "x-ms-version (like Azurite's --loose --skipApiVersionCheck); opens\n"
     "the admin endpoints too (--admin-open)",
     [](C& c, V f, V v) { return SetSwitch(c.loose, f, v); }},
    {"transient-accounts", "", "off",
     "delete the accounts made by POST /-/accounts, and their data, at shutdown\n"
     "(else they are kept in the data dir and served after a restart)",
     [](C& c, V f, V v) { return SetSwitch(c.transient_accounts, f, v); }},
    {"exit-with-stdin", "", "off",
     "stop when standard input ends: a launcher holding the pipe's write end\n"
     "takes the server with it when it dies, even by SIGKILL (test packages)",
     [](C& c, V f, V v) { return SetSwitch(c.exit_with_stdin, f, v); }},
    {"admin-open", "", "off",
     "let every client use the admin endpoints (/-/metrics, /-/faults, ...);\n"
     "else only loopback clients and requests with an account's credentials",
     [](C& c, V f, V v) { return SetSwitch(c.admin_open, f, v); }},
    {"host-style", "on|off", "on",
     "<account>.localhost:<port> (any Host whose first label is an\n"
     "account, not an IP address) addresses that account; off: path style only",
     [](C& c, V f, V v) { return SetSwitch(c.host_style, f, v); }},
    {"oauth", "", "off", "accept Microsoft Entra ID bearer tokens (needs --cert: HTTPS only)",
     [](C& c, V f, V v) { return SetSwitch(c.oauth.enabled, f, v); }},
    {"oauth-issuer-keys", "<file>", "",
     "JWKS file: verify token signatures (RS256, ES256) with its keys;\n"
     "without it tokens are decoded and checked but not verified",
     [](C& c, V f, V v) { return SetNonEmpty(c.oauth.issuer_keys_file, f, v); }},
    {"oauth-tenant", "<guid>", "any",
     "the accounts' Entra ID tenant: tokens of other tenants fail issuer\n"
     "validation; the bearer challenge names it",
     [](C& c, V f, V v) -> Result<void> {
       if (!ParseGuid(v)) return tl::unexpected(BadValue(f, v, "a tenant GUID"));
       c.oauth.tenant = AsciiLower(v);
       return {};
     }},
    {"oauth-roles", "<list>", "*=contributor",
     "roles by token oid: 'oid=reader;oid2=contributor+account-contributor;\n"
     "*=reader' (reader, contributor, account-contributor or Azure role names)",
     [](C& c, V f, V v) -> Result<void> {
       auto roles = ParseRoleAssignments(f, v);
       if (!roles) return tl::unexpected(roles.error());
       c.oauth.roles = std::move(*roles);
       return {};
     }},
    {"log-level", "<level>", "info", "trace|debug|info|warn|error|critical|off",
     [](C& c, V f, V v) { return SetLevel(c.log_level, f, v); }},
    {"log-format", "text|json", "text", "json: one JSON object per line (for log collectors)",
     [](C& c, V f, V v) -> Result<void> {
       if (v != "text" && v != "json") return tl::unexpected(BadValue(f, v, "text or json"));
       c.log_format = std::string(v);
       return {};
     }},
    {"access-log-level", "<level>", "debug",
     "level of the one-line-per-request access log; 'info' shows it under\n"
     "the default --log-level",
     [](C& c, V f, V v) { return SetLevel(c.access_log_level, f, v); }},
    {"threads", "<n>", "hardware cores", "I/O threads",
     [](C& c, V f, V v) { return SetNumber<unsigned>(c.threads, f, v, 1, 1024); }},
    {"request-timeout", "<s>", "60", "seconds to receive one request / keep-alive idle time",
     [](C& c, V f, V v) { return SetNumber<unsigned>(c.request_timeout_seconds, f, v, 1, 86400); }},
    {"map-size-mb", "<n>", "1048576 = 1 TiB",
     "LMDB map size in MiB: the most data the store can hold; a write\n"
     "beyond it answers InsufficientAccountResources. Address space, not\n"
     "disk, on Linux; on Windows the map (and data.mdb) starts at 64 MiB\n"
     "and grows with the data up to this",
     [](C& c, V f, V v) {
       return SetNumber<std::uint64_t>(c.map_size_mb, f, v, 1, std::uint64_t{1} << 30);
     }},
    {"compaction", "auto|off", "auto",
     "auto: compact data.mdb when the pages deleted data left free pay for\n"
     "it, at start and while serving (at most once a minute; writes wait\n"
     "for the copy); off: only `malachite compact` does",
     [](C& c, V f, V v) -> Result<void> {
       if (v != "auto" && v != "off") return tl::unexpected(BadValue(f, v, "auto or off"));
       c.compaction = v == "auto";
       return {};
     }},
    {"space-reserve-mb", "<n>", "2",
     "MiB of disk kept in reserve (space.reserve) and given back when the\n"
     "disk is full, so deletes still commit; 0: no reserve",
     [](C& c, V f, V v) { return SetNumber<std::uint64_t>(c.space_reserve_mb, f, v, 0, 4096); }},
    {"body-memory-mb", "<n>", "256",
     "MiB all request bodies in flight may hold together (bodies over 64 KiB\n"
     "7/8 of it, the rest kept for small ones); past it a request waits up to\n"
     "1 s, then gets 503 ServerBusy; 0: no limit",
     [](C& c, V f, V v) { return SetNumber<std::uint64_t>(c.body_memory_mb, f, v, 0, 1u << 20); }},
    {"query-budget-ms", "<n>", "5000",
     "wall time a query page may scan before it returns a partial page\n"
     "with a continuation",
     [](C& c, V f, V v) { return SetNumber<unsigned>(c.query_budget_ms, f, v, 1, 3600000); }},
    {"explain", "", "off",
     "add x-malachite-query-plan to query responses: the scan plan, the\n"
     "query class the real service would use, entities scanned/returned",
     [](C& c, V f, V v) { return SetSwitch(c.explain, f, v); }},
    {"cert", "<file>", "", "PEM certificate (chain): serve HTTPS instead of HTTP (with --key)",
     [](C& c, V f, V v) { return SetNonEmpty(c.cert_file, f, v); }},
    {"key", "<file>", "", "PEM private key of --cert",
     [](C& c, V f, V v) { return SetNonEmpty(c.key_file, f, v); }},
    {"cert-password", "<pw>", "",
     "--cert is a PKCS#12 (.pfx) file with its key, encrypted with <pw>\n"
     "(instead of --key)",
     [](C& c, V f, V v) { return SetNonEmpty(c.cert_password, f, v); }},
    {"skip-api-version-check", "", "off",
     "serve any x-ms-version (unknown, malformed or none) at the default\n"
     "version; authentication is still checked (Azurite's --skipApiVersionCheck)",
     [](C& c, V f, V v) { return SetSwitch(c.skip_api_version_check, f, v); }},
    {"debug-log", "<file>", "",
     "also append every log line at debug level (access log included) to <file>",
     [](C& c, V f, V v) { return SetNonEmpty(c.debug_log_file, f, v); }},
    {"durability", "process|full", "process",
     "process: acknowledged writes survive the process being killed (fsync\n"
     "every --sync-interval-ms; a host crash loses at most that); full:\n"
     "each acknowledgement waits for its commit's fsync",
     [](C& c, V f, V v) -> Result<void> {
       auto durability = ParseDurability(v);
       if (!durability || *durability == Durability::kNone) {
         return tl::unexpected(BadValue(f, v, "process or full"));
       }
       c.durability = *durability;
       return {};
     }},
    {"sync-interval-ms", "<n>", "1000",
     "how often the background flush fsyncs what was committed since",
     [](C& c, V f, V v) { return SetNumber<unsigned>(c.sync_interval_ms, f, v, 1, 3600000); }},
    {"no-sync", "", "", "the same as --durability process (kept for old scripts)",
     [](C& c, V f, V v) -> Result<void> {
       bool no_sync = false;
       if (auto ok = SetSwitch(no_sync, f, v); !ok) return ok;
       if (no_sync) c.durability = Durability::kProcess;
       return {};
     },
     false, true},
    {"probe", "<url>", "",
     "do not serve: GET <url> (http or https, certificate not checked) and\n"
     "exit 0 on 200, else 1; e.g. http://127.0.0.1:10002/-/ready. A path\n"
     "(/-/ready) probes this configuration's own port and scheme",
     [](C& c, V f, V v) { return SetNonEmpty(c.probe_url, f, v); }, true},
    {"version", "", "", "print the version and exit",
     [](C& c, V f, V v) { return SetSwitch(c.version, f, v); }, true},
    {"help", "", "", "print this help and exit",
     [](C& c, V f, V v) { return SetSwitch(c.help, f, v); }, true},
    {"man", "", "", "print the man page (roff) and exit",
     [](C& c, V f, V v) { return SetSwitch(c.man, f, v); }, true, true},
};

const Option* FindOption(std::string_view name) {
  for (const Option& option : kOptions) {
    if (option.name == name) return &option;
  }
  return nullptr;
}

std::string EnvName(std::string_view name) {
  std::string env = "MALACHITE_";
  for (char c : name) env += c == '-' ? '_' : static_cast<char>(std::toupper(c));
  return env;
}

}  // namespace

Result<void> ApplyOption(ServerConfig& config, std::string_view name, std::string_view value,
                         std::string_view flag) {
  if (const Option* option = FindOption(name)) return option->apply(config, flag, value);
  if (auto applied = ApplyThrottleFlag(config.throttle, "--" + std::string(name), value)) {
    return *applied;
  }
  return Fail(ErrorCode::kInvalidInput, "unknown option '" + std::string(flag) + "' (try --help)");
}

namespace {

// Applies the 'name = value' lines of the config file text. Errors are prefixed "<path>:<line>: ".
Result<void> ApplyFileText(ServerConfig& config, std::string_view path, std::string_view text) {
  std::istringstream lines{std::string(text)};
  std::string raw;
  for (int number = 1; std::getline(lines, raw); ++number) {
    const std::string where = std::string(path) + ":" + std::to_string(number) + ": ";
    std::string_view line = TrimAsciiSpace(raw);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      return Fail(ErrorCode::kInvalidInput, where + "expected 'name = value'");
    }
    std::string name(TrimAsciiSpace(line.substr(0, eq)));
    std::replace(name.begin(), name.end(), '_', '-');
    std::string_view value = TrimAsciiSpace(line.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    const Option* option = FindOption(name);
    if ((option && option->command_line_only) || name == "config") {
      return Fail(ErrorCode::kInvalidInput, where + "'" + name + "' is not allowed in a file");
    }
    if (auto ok = ApplyOption(config, name, value, name); !ok) {
      return Fail(ErrorCode::kInvalidInput, where + ok.error().message);
    }
  }
  return {};
}

Result<void> ApplyFile(ServerConfig& config, const std::string& path) {
  std::ifstream in(Utf8Path(path), std::ios::binary);
  if (!in) return Fail(ErrorCode::kInvalidInput, "cannot read config file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return ApplyFileText(config, path, text.str());
}

Result<void> ApplyEnvironment(ServerConfig& config, const char* const* envp) {
  for (const Option& option : kOptions) {
    if (option.command_line_only || option.name == "config") continue;
    const std::string env = EnvName(option.name);
    if (auto value = FindEnv(envp, env)) {
      if (auto ok = option.apply(config, env, *value); !ok) return ok;
    }
  }
  return ApplyThrottleEnv(config.throttle, envp);
}

// The command line's --config value, if any (it is read before everything else).
std::optional<std::string_view> ConfigFlag(int argc, const char* const* argv) {
  std::optional<std::string_view> found;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg(argv[i]);
    if (arg.substr(0, 9) == "--config=") found = arg.substr(9);
    if (arg == "--config" && i + 1 < argc) found = argv[++i];
  }
  return found;
}

Result<void> ApplyCommandLine(ServerConfig& config, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg(argv[i]);
    if (arg == "-h") arg = "--help";
    if (arg.substr(0, 2) != "--" || arg.size() == 2) {
      return Fail(ErrorCode::kInvalidInput,
                  "unexpected argument '" + std::string(arg) + "' (try --help)");
    }
    std::string_view flag = arg;
    std::string_view value;
    const std::size_t eq = arg.find('=');
    const Option* option = FindOption(arg.substr(2, eq == std::string_view::npos ? eq : eq - 2));
    if (eq != std::string_view::npos) {
      flag = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    } else if (!option || !option->value_name.empty()) {  // not a switch: the value follows
      if (i + 1 >= argc) {
        const bool known = option || IsThrottleValueFlag(flag);
        return Fail(ErrorCode::kInvalidInput,
                    known ? "option '" + std::string(flag) + "' needs a value"
                          : "unknown option '" + std::string(flag) + "' (try --help)");
      }
      value = argv[++i];
    }
    if (auto ok = ApplyOption(config, flag.substr(2), value, flag); !ok) return ok;
  }
  return {};
}

}  // namespace

// Keys are base64, which has no ':' or ';'.
Result<void> ParseAccounts(std::vector<AccountConfig>& accounts, std::string_view flag,
                           std::string_view text) {
  while (!text.empty()) {
    std::size_t semi = text.find(';');
    std::string_view entry = text.substr(0, semi);
    text = semi == std::string_view::npos ? std::string_view{} : text.substr(semi + 1);
    if (entry.empty()) continue;
    std::size_t colon = entry.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      return Fail(ErrorCode::kInvalidInput,
                  std::string(flag) + ": entry '" + std::string(entry) + "' is not name:key");
    }
    AccountConfig account{std::string(entry.substr(0, colon)), {}, {}};
    std::string_view keys = entry.substr(colon + 1);
    std::size_t colon2 = keys.find(':');
    account.key1 = std::string(keys.substr(0, colon2));
    if (colon2 != std::string_view::npos) account.key2 = std::string(keys.substr(colon2 + 1));
    if (auto ok = CheckKey(flag, account.name, account.key1); !ok) return ok;
    if (!account.key2.empty()) {
      if (auto ok = CheckKey(flag, account.name, account.key2); !ok) return ok;
    }
    UpsertAccount(accounts, std::move(account));
  }
  return {};
}

Result<ServerConfig> ParseArgs(int argc, const char* const* argv, const char* const* envp) {
  ServerConfig config;
  config.threads = std::max(1u, std::thread::hardware_concurrency());
  config.accounts.push_back(
      AccountConfig{std::string(kDevAccountName), std::string(kDevAccountKey), {}});
  // Precedence: flags > environment > config file > defaults. Each later source applies on top
  // (accounts merge by name, repeatable throttle options accumulate).
  std::optional<std::string_view> file = ConfigFlag(argc, argv);
  if (!file) file = FindEnv(envp, "MALACHITE_CONFIG");
  if (file && !file->empty()) {
    if (auto ok = ApplyFile(config, std::string(*file)); !ok) return tl::unexpected(ok.error());
  }
  if (auto ok = ApplyEnvironment(config, envp); !ok) return tl::unexpected(ok.error());
  if (auto ok = ApplyCommandLine(config, argc, argv); !ok) return tl::unexpected(ok.error());
  if (file) config.config_file = std::string(*file);
  if (auto ok = CheckConfig(config); !ok) return tl::unexpected(ok.error());
  return config;
}

Result<void> CheckConfig(ServerConfig& config) {
  if (config.cert_file.empty() != (config.key_file.empty() && config.cert_password.empty())) {
    return Fail(ErrorCode::kInvalidInput,
                "--cert goes with --key (PEM) or --cert-password (PKCS#12 .pfx)");
  }
  if (!config.key_file.empty() && !config.cert_password.empty()) {
    return Fail(ErrorCode::kInvalidInput, "--key and --cert-password exclude each other");
  }
  // Azure: spec §10.9 — bearer tokens travel over HTTPS only (the SDKs refuse plain HTTP too).
  if (config.oauth.enabled && config.cert_file.empty()) {
    return Fail(ErrorCode::kInvalidInput,
                "--oauth needs --cert and --key (bearer tokens over HTTPS only)");
  }
  // Emulator: tmpfs has nothing to sync, and in-memory data does not outlive the process anyway.
  if (config.in_memory) config.durability = Durability::kNone;
  return {};
}

std::vector<OptionHelp> OptionHelps() {
  std::vector<OptionHelp> out;
  for (const Option& option : kOptions) {
    if (option.hidden) continue;
    OptionHelp help{"--" + std::string(option.name), std::string(option.value_name),
                    std::string(option.default_text), std::string(option.help), ""};
    if (!option.command_line_only && option.name != "config") help.env = EnvName(option.name);
    if (option.name == "config") help.env = "MALACHITE_CONFIG";
    out.push_back(std::move(help));
  }
  return out;
}

}  // namespace malachite
