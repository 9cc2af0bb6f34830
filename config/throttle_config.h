// ThrottleConfig: the scalability targets Malachite enforces (spec §12), fault-injection rules and
// the rebalancing emulation, with their defaults and the parsing of their flags and environment
// variables. ServerConfig holds one (server_config.h); ParseArgs hands these flags here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace malachite {

// A per-account override of the account rate.
struct AccountRate {
  std::string account;
  std::uint64_t rate = 0;  // entities per second, >= 1
};

struct ThrottleConfig {
  // --throttling on|off, or MALACHITE_THROTTLING=on|off (also 1/0, true/false). Default on: over
  // a target, requests get 503 ServerBusy as from the real service.
  bool enabled = true;
  // --partition-rate N, or MALACHITE_PARTITION_RATE: entities/s per partition (account, table,
  // PartitionKey). Default 2000 (spec §12.1).
  std::uint64_t partition_rate = 2000;
  // --account-rate N, or MALACHITE_ACCOUNT_RATE: entities/s per account. Default 20000.
  std::uint64_t account_rate = 20000;
  // --account-rate name=N (repeatable), or name=N items in MALACHITE_ACCOUNT_RATE ("N,name=N"):
  // the rate of one account (a later entry for the same name wins).
  std::vector<AccountRate> account_rates;
  // --throttle-burst-ms N: what a rate limiter holds when idle, as time at its rate. Default
  // 1000: a quiet partition takes 2,000 entities at once before it is held to 2,000/s.
  unsigned burst_ms = 1000;
  // --rebalance-after S: a partition throttled without a pause for S seconds goes offline (every
  // request to it gets 503 ServerBusy) for --rebalance-offline seconds, as the service does while
  // it moves a hot partition. Default 0 = off (it is a fault to opt into, like the rules below).
  unsigned rebalance_after_seconds = 0;
  // --rebalance-offline S: how long a rebalanced partition stays offline. Default 3.
  unsigned rebalance_offline_seconds = 3;
  // --max-tracked-partitions N: partitions whose rate state is kept; idle ones are forgotten
  // first (a forgotten partition starts again with a full burst). Default 65536.
  std::size_t max_tracked_partitions = 65536;
  // --fault '<json rule>' (repeatable), or MALACHITE_FAULTS (one rule or a JSON array): fault
  // injection rules (server/traffic/fault_injector.h documents the format). Default none.
  std::vector<std::string> fault_rules;
  // --faults-file PATH, or MALACHITE_FAULTS_FILE: a JSON array of rules read at startup.
  std::string faults_file;

  // The account's rate: its override, else account_rate.
  std::uint64_t AccountRateOf(std::string_view account) const;
};

// True for the flags below that take a value (for ParseArgs' "needs a value" message).
bool IsThrottleValueFlag(std::string_view flag);

// Applies one throttle flag with its value. Returns nullopt when `flag` is not a throttle flag;
// otherwise the result: kInvalidInput with a one-line message naming the flag on a bad value.
std::optional<Result<void>> ApplyThrottleFlag(ThrottleConfig& config, std::string_view flag,
                                              std::string_view value);

// Applies MALACHITE_THROTTLING, MALACHITE_PARTITION_RATE, MALACHITE_ACCOUNT_RATE,
// MALACHITE_FAULTS and MALACHITE_FAULTS_FILE from `envp` (null-terminated "NAME=value" array; may
// be null). Errors: kInvalidInput naming the variable.
Result<void> ApplyThrottleEnv(ThrottleConfig& config, const char* const* envp);

// The --help lines of these options and variables.
std::string ThrottleHelpText();
std::string ThrottleEnvHelpText();

}  // namespace malachite
