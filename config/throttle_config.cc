#include "config/throttle_config.h"

#include <charconv>
#include <type_traits>

#include "common/environment.h"

namespace malachite {
namespace {

constexpr std::string_view kValueFlags[] = {"--throttling",
                                            "--partition-rate",
                                            "--account-rate",
                                            "--throttle-burst-ms",
                                            "--rebalance-after",
                                            "--rebalance-offline",
                                            "--fault",
                                            "--faults-file",
                                            "--max-tracked-partitions"};

// Rates above this would make a limiter's interval round to zero (rate_limiter.h).
constexpr std::uint64_t kMaxRate = 100'000'000;

Result<std::uint64_t> ParseUnsigned(std::string_view what, std::string_view text, std::uint64_t min,
                                    std::uint64_t max) {
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return Fail(ErrorCode::kInvalidInput, "invalid value '" + std::string(text) + "' for " +
                                              std::string(what) + " (expected an integer in " +
                                              std::to_string(min) + ".." + std::to_string(max) +
                                              ")");
  }
  return value;
}

Result<bool> ParseOnOff(std::string_view what, std::string_view text) {
  if (text == "on" || text == "1" || text == "true") return true;
  if (text == "off" || text == "0" || text == "false") return false;
  return Fail(ErrorCode::kInvalidInput, "invalid value '" + std::string(text) + "' for " +
                                            std::string(what) + " (expected on or off)");
}

// "N" sets the default account rate, "name=N" one account's.
Result<void> ApplyAccountRate(ThrottleConfig& config, std::string_view what,
                              std::string_view text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos) {
    auto rate = ParseUnsigned(what, text, 1, kMaxRate);
    if (!rate) return tl::unexpected(rate.error());
    config.account_rate = *rate;
    return {};
  }
  if (eq == 0) {
    return Fail(ErrorCode::kInvalidInput, "invalid value '" + std::string(text) + "' for " +
                                              std::string(what) + " (expected N or account=N)");
  }
  auto rate = ParseUnsigned(what, text.substr(eq + 1), 1, kMaxRate);
  if (!rate) return tl::unexpected(rate.error());
  const std::string name(text.substr(0, eq));
  for (auto& existing : config.account_rates) {
    if (existing.account == name) {
      existing.rate = *rate;
      return {};
    }
  }
  config.account_rates.push_back({name, *rate});
  return {};
}

}  // namespace

std::uint64_t ThrottleConfig::AccountRateOf(std::string_view account) const {
  for (const auto& entry : account_rates) {
    if (entry.account == account) return entry.rate;
  }
  return account_rate;
}

bool IsThrottleValueFlag(std::string_view flag) {
  for (auto name : kValueFlags) {
    if (name == flag) return true;
  }
  return false;
}

std::optional<Result<void>> ApplyThrottleFlag(ThrottleConfig& config, std::string_view flag,
                                              std::string_view value) {
  auto set = [&](auto parsed, auto& field) -> Result<void> {
    if (!parsed) return tl::unexpected(parsed.error());
    field = static_cast<std::remove_reference_t<decltype(field)>>(*parsed);
    return {};
  };
  if (flag == "--throttling") return set(ParseOnOff(flag, value), config.enabled);
  if (flag == "--partition-rate") {
    return set(ParseUnsigned(flag, value, 1, kMaxRate), config.partition_rate);
  }
  if (flag == "--account-rate") return ApplyAccountRate(config, flag, value);
  if (flag == "--throttle-burst-ms") {
    return set(ParseUnsigned(flag, value, 1, 3'600'000), config.burst_ms);
  }
  if (flag == "--rebalance-after") {
    return set(ParseUnsigned(flag, value, 0, 86400), config.rebalance_after_seconds);
  }
  if (flag == "--rebalance-offline") {
    return set(ParseUnsigned(flag, value, 1, 3600), config.rebalance_offline_seconds);
  }
  if (flag == "--max-tracked-partitions") {
    return set(ParseUnsigned(flag, value, 64, 100'000'000), config.max_tracked_partitions);
  }
  if (flag == "--fault") {
    config.fault_rules.emplace_back(value);
    return Result<void>{};
  }
  if (flag == "--faults-file") {
    if (value.empty()) return Fail(ErrorCode::kInvalidInput, "--faults-file needs a file name");
    config.faults_file = std::string(value);
    return Result<void>{};
  }
  return std::nullopt;
}

Result<void> ApplyThrottleEnv(ThrottleConfig& config, const char* const* envp) {
  if (auto text = FindEnv(envp, "MALACHITE_THROTTLING")) {
    auto on = ParseOnOff("MALACHITE_THROTTLING", *text);
    if (!on) return tl::unexpected(on.error());
    config.enabled = *on;
  }
  if (auto text = FindEnv(envp, "MALACHITE_PARTITION_RATE")) {
    auto rate = ParseUnsigned("MALACHITE_PARTITION_RATE", *text, 1, kMaxRate);
    if (!rate) return tl::unexpected(rate.error());
    config.partition_rate = *rate;
  }
  if (auto text = FindEnv(envp, "MALACHITE_ACCOUNT_RATE")) {
    std::string_view rest = *text;
    while (!rest.empty()) {
      const std::size_t comma = rest.find(',');
      std::string_view item = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      if (item.empty()) continue;
      if (auto ok = ApplyAccountRate(config, "MALACHITE_ACCOUNT_RATE", item); !ok) return ok;
    }
  }
  if (auto text = FindEnv(envp, "MALACHITE_FAULTS"); text && !text->empty()) {
    config.fault_rules.emplace_back(*text);
  }
  if (auto text = FindEnv(envp, "MALACHITE_FAULTS_FILE"); text && !text->empty()) {
    config.faults_file = std::string(*text);
  }
  return {};
}

std::string ThrottleHelpText() {
  return "Throttling (spec §12: entities/s; a batch of N counts N, a query what it scans):\n"
         "  --throttling on|off      answer 503 ServerBusy over the targets (default on)\n"
         "  --partition-rate <n>     entities/s per partition (default 2000)\n"
         "  --account-rate <n>       entities/s per account (default 20000)\n"
         "  --account-rate <acct>=<n>  one account's rate (repeatable)\n"
         "  --throttle-burst-ms <n>  burst allowance, as time at the rate (default 1000)\n"
         "  --rebalance-after <s>    a partition throttled for <s> seconds without a pause goes\n"
         "                           offline (all its requests 503) (default 0 = off)\n"
         "  --rebalance-offline <s>  how long it stays offline (default 3)\n"
         "  --max-tracked-partitions <n>  partitions whose rate is kept (default 65536)\n"
         "  --fault <json>           a fault rule, e.g. '{\"fault\":\"ServerBusy\",\"every\":3}'\n"
         "                           (repeatable; see README \"Throttling and faults\")\n"
         "  --faults-file <path>     a JSON array of fault rules (default none)\n"
         "  Runtime: GET /-/metrics (Prometheus), GET /-/partitions (hot partitions),\n"
         "           GET/POST/DELETE /-/faults (fault rules); no auth.\n"
         "\n"
         "In a browser: /-/explorer (tables, entities, query plans, live traffic, fault rules);\n"
         "GET /-/advisor (design guide findings, JSON), GET /-/bill (transactions, capacity,\n"
         "monthly estimate; prices: PUT /-/bill/prices).\n";
}

std::string ThrottleEnvHelpText() {
  return "  MALACHITE_THROTTLING=on|off   same as --throttling\n"
         "  MALACHITE_PARTITION_RATE=<n>  same as --partition-rate\n"
         "  MALACHITE_ACCOUNT_RATE=<n>[,<acct>=<n>...]  same as --account-rate\n"
         "  MALACHITE_FAULTS=<json rule or array>, MALACHITE_FAULTS_FILE=<path>\n";
}

}  // namespace malachite
