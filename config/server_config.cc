#include "config/server_config.h"

#include <charconv>
#include <thread>

#include "common/encoding.h"

namespace malachite {
namespace {

constexpr std::string_view kLogLevels[] = {"trace", "debug",    "info", "warn",
                                           "error", "critical", "off"};

constexpr std::string_view kValueFlags[] = {
    "--host",    "--port",        "--data-dir",        "--log-level",
    "--threads", "--map-size-mb", "--request-timeout", "--query-budget-ms"};

template <typename T>
Result<T> ParseNumber(std::string_view flag, std::string_view text, T min, T max) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return Fail(ErrorCode::kInvalidInput, "invalid value '" + std::string(text) + "' for " +
                                              std::string(flag) + " (expected an integer in " +
                                              std::to_string(min) + ".." + std::to_string(max) +
                                              ")");
  }
  return value;
}

Result<void> CheckKey(std::string_view account, std::string_view key) {
  auto raw = Base64Decode(key);
  if (!raw || raw->empty()) {
    return Fail(ErrorCode::kInvalidInput, "MALACHITE_ACCOUNTS: the key of account '" +
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

// MALACHITE_ACCOUNTS="name1:key1[:key2];name2:key2". Keys are base64, which has no ':' or ';'.
Result<void> ParseAccounts(std::string_view text, std::vector<AccountConfig>& accounts) {
  while (!text.empty()) {
    std::size_t semi = text.find(';');
    std::string_view entry = text.substr(0, semi);
    text = semi == std::string_view::npos ? std::string_view{} : text.substr(semi + 1);
    if (entry.empty()) continue;
    std::size_t colon = entry.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      return Fail(ErrorCode::kInvalidInput,
                  "MALACHITE_ACCOUNTS: entry '" + std::string(entry) + "' is not name:key");
    }
    AccountConfig account{std::string(entry.substr(0, colon)), {}, {}};
    std::string_view keys = entry.substr(colon + 1);
    std::size_t colon2 = keys.find(':');
    account.key1 = std::string(keys.substr(0, colon2));
    if (colon2 != std::string_view::npos) account.key2 = std::string(keys.substr(colon2 + 1));
    if (auto ok = CheckKey(account.name, account.key1); !ok) return ok;
    if (!account.key2.empty()) {
      if (auto ok = CheckKey(account.name, account.key2); !ok) return ok;
    }
    UpsertAccount(accounts, std::move(account));
  }
  return {};
}

// Applies one flag that takes a value.
Result<void> ApplyFlag(ServerConfig& config, std::string_view flag, std::string_view value) {
  if (flag == "--host") {
    if (value.empty()) return Fail(ErrorCode::kInvalidInput, "--host needs a non-empty value");
    config.host = std::string(value);
  } else if (flag == "--port") {
    auto port = ParseNumber<unsigned>(flag, value, 0, 65535);
    if (!port) return tl::unexpected(port.error());
    config.port = static_cast<std::uint16_t>(*port);
  } else if (flag == "--data-dir") {
    if (value.empty()) return Fail(ErrorCode::kInvalidInput, "--data-dir needs a non-empty value");
    config.data_dir = std::string(value);
  } else if (flag == "--log-level") {
    bool known = false;
    for (auto level : kLogLevels) known = known || level == value;
    if (!known) {
      return Fail(
          ErrorCode::kInvalidInput,
          "invalid value '" + std::string(value) +
              "' for --log-level (expected trace, debug, info, warn, error, critical, off)");
    }
    config.log_level = std::string(value);
  } else if (flag == "--threads") {
    auto threads = ParseNumber<unsigned>(flag, value, 1, 1024);
    if (!threads) return tl::unexpected(threads.error());
    config.threads = *threads;
  } else if (flag == "--map-size-mb") {
    auto mb = ParseNumber<std::uint64_t>(flag, value, 1, std::uint64_t{1} << 30);
    if (!mb) return tl::unexpected(mb.error());
    config.map_size_mb = *mb;
  } else if (flag == "--request-timeout") {
    auto seconds = ParseNumber<unsigned>(flag, value, 1, 86400);
    if (!seconds) return tl::unexpected(seconds.error());
    config.request_timeout_seconds = *seconds;
  } else if (flag == "--query-budget-ms") {
    auto ms = ParseNumber<unsigned>(flag, value, 1, 3600000);
    if (!ms) return tl::unexpected(ms.error());
    config.query_budget_ms = *ms;
  } else {
    return Fail(ErrorCode::kInvalidInput,
                "unknown option '" + std::string(flag) + "' (try --help)");
  }
  return {};
}

std::optional<std::string_view> FindEnv(const char* const* envp, std::string_view name) {
  if (envp == nullptr) return std::nullopt;
  for (; *envp != nullptr; ++envp) {
    std::string_view entry(*envp);
    if (entry.size() > name.size() && entry.substr(0, name.size()) == name &&
        entry[name.size()] == '=') {
      return entry.substr(name.size() + 1);
    }
  }
  return std::nullopt;
}

}  // namespace

Result<ServerConfig> ParseArgs(int argc, const char* const* argv, const char* const* envp) {
  ServerConfig config;
  config.threads = std::max(1u, std::thread::hardware_concurrency());
  config.accounts.push_back(
      AccountConfig{std::string(kDevAccountName), std::string(kDevAccountKey), {}});
  if (auto accounts = FindEnv(envp, "MALACHITE_ACCOUNTS")) {
    if (auto ok = ParseAccounts(*accounts, config.accounts); !ok) return tl::unexpected(ok.error());
  }
  if (auto explain = FindEnv(envp, "MALACHITE_EXPLAIN")) {
    if (*explain != "0" && *explain != "1") {
      return Fail(ErrorCode::kInvalidInput, "MALACHITE_EXPLAIN must be 0 or 1");
    }
    config.explain = *explain == "1";
  }
  for (int i = 1; i < argc; ++i) {
    std::string_view arg(argv[i]);
    if (arg == "--help" || arg == "-h") {
      config.help = true;
      continue;
    }
    if (arg == "--no-sync") {
      config.sync = false;
      continue;
    }
    if (arg == "--explain") {
      config.explain = true;
      continue;
    }
    if (arg.substr(0, 2) != "--") {
      return Fail(ErrorCode::kInvalidInput,
                  "unexpected argument '" + std::string(arg) + "' (try --help)");
    }
    std::string_view flag = arg;
    std::string_view value;
    if (std::size_t eq = arg.find('='); eq != std::string_view::npos) {
      flag = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    } else {
      if (i + 1 >= argc) {
        bool known = false;
        for (auto name : kValueFlags) known = known || name == flag;
        return Fail(ErrorCode::kInvalidInput,
                    known ? "option '" + std::string(flag) + "' needs a value"
                          : "unknown option '" + std::string(flag) + "' (try --help)");
      }
      value = argv[++i];
    }
    if (auto ok = ApplyFlag(config, flag, value); !ok) return tl::unexpected(ok.error());
  }
  return config;
}

std::string HelpText() {
  return "Usage: malachite [options]\n"
         "An Azure Table storage emulator.\n"
         "\n"
         "Options:\n"
         "  --host <addr>            address to listen on (default 127.0.0.1)\n"
         "  --port <n>               TCP port; 0 picks a free one and prints it (default 10002)\n"
         "  --data-dir <dir>         data directory, created if missing (default ./data)\n"
         "  --log-level <level>      trace|debug|info|warn|error|critical|off (default info)\n"
         "  --threads <n>            I/O threads (default: number of hardware cores)\n"
         "  --map-size-mb <n>        LMDB map size in MiB (default 1048576 = 1 TiB)\n"
         "  --request-timeout <s>    seconds to receive one request / idle keep-alive (default "
         "60)\n"
         "  --query-budget-ms <n>    wall time a query page may scan before it returns a\n"
         "                           partial page with a continuation (default 5000)\n"
         "  --explain                add x-malachite-query-plan to query responses: the scan\n"
         "                           plan, the query class the real service would use, and\n"
         "                           entities scanned/returned (default off)\n"
         "  --help                   print this help and exit\n"
         "\n"
         "Environment:\n"
         "  MALACHITE_ACCOUNTS=name1:key1[:key2];name2:key   extra accounts (base64 keys); the\n"
         "      default account devstoreaccount1 uses the well-known emulator key.\n"
         "  MALACHITE_EXPLAIN=1      same as --explain\n";
}

}  // namespace malachite
