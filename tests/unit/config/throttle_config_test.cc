// The throttling options through ParseArgs: flags, MALACHITE_* variables, defaults and errors.
#include "config/throttle_config.h"

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

std::string Dump(const ThrottleConfig& t) {
  std::string out =
      std::string(t.enabled ? "on" : "off") + " partition=" + std::to_string(t.partition_rate) +
      " account=" + std::to_string(t.account_rate) + " burst=" + std::to_string(t.burst_ms) +
      " rebalance=" + std::to_string(t.rebalance_after_seconds) + "/" +
      std::to_string(t.rebalance_offline_seconds) +
      " tracked=" + std::to_string(t.max_tracked_partitions);
  for (const auto& rate : t.account_rates)
    out += " " + rate.account + "=" + std::to_string(rate.rate);
  for (const auto& rule : t.fault_rules) out += " fault:" + rule;
  if (!t.faults_file.empty()) out += " file:" + t.faults_file;
  return out;
}

}  // namespace

TEST_CASE("throttle_config: throttling is on at the service's targets by default", "[config]") {
  auto config = Parse({});
  REQUIRE(config);
  CHECK(Dump(config->throttle) ==
        "on partition=2000 account=20000 burst=1000 rebalance=0/3 tracked=65536");
  CHECK(config->throttle.AccountRateOf("anyone") == 20000);
}

TEST_CASE("throttle_config: flags set limits, overrides and fault rules, flags beat variables",
          "[config]") {
  auto config = Parse({"--throttling", "off", "--partition-rate=500", "--account-rate", "9000",
                       "--account-rate", "slow=10", "--account-rate=slow=20", "--rebalance-after",
                       "10", "--rebalance-offline=5", "--throttle-burst-ms", "250", "--fault",
                       R"({"fault":"ServerBusy"})", "--faults-file", "/tmp/f.json"},
                      {"MALACHITE_THROTTLING=on", "MALACHITE_PARTITION_RATE=7"});
  REQUIRE(config);
  CHECK(Dump(config->throttle) ==
        "off partition=500 account=9000 burst=250 rebalance=10/5 tracked=65536 slow=20 "
        R"(fault:{"fault":"ServerBusy"} file:/tmp/f.json)");
  CHECK(config->throttle.AccountRateOf("slow") == 20);
}

TEST_CASE("throttle_config: MALACHITE_* variables", "[config]") {
  auto config = Parse({}, {"MALACHITE_THROTTLING=0", "MALACHITE_PARTITION_RATE=100",
                           "MALACHITE_ACCOUNT_RATE=3000,a1=5,a2=6",
                           R"(MALACHITE_FAULTS=[{"fault":"Delay","delay_ms":5}])",
                           "MALACHITE_FAULTS_FILE=rules.json"});
  REQUIRE(config);
  CHECK(Dump(config->throttle) ==
        "off partition=100 account=3000 burst=1000 rebalance=0/3 tracked=65536 a1=5 a2=6 "
        R"(fault:[{"fault":"Delay","delay_ms":5}] file:rules.json)");
}

TEST_CASE("throttle_config: bad values fail with a message naming the flag or variable",
          "[config]") {
  struct Case {
    std::vector<const char*> args;
    std::vector<const char*> env;
    std::string message;
  };
  std::vector<Case> cases = {
      {{"--throttling", "maybe"},
       {},
       "invalid value 'maybe' for --throttling (expected on or off)"},
      {{"--partition-rate", "0"},
       {},
       "invalid value '0' for --partition-rate (expected an integer in 1..100000000)"},
      {{"--account-rate", "=5"},
       {},
       "invalid value '=5' for --account-rate (expected N or account=N)"},
      {{"--account-rate", "a=x"},
       {},
       "invalid value 'x' for --account-rate (expected an integer in 1..100000000)"},
      {{"--partition-rate"}, {}, "option '--partition-rate' needs a value"},
      {{},
       {"MALACHITE_THROTTLING=yes"},
       "invalid value 'yes' for MALACHITE_THROTTLING (expected on or off)"},
  };
  for (const auto& c : cases) {
    auto config = Parse(c.args, c.env);
    REQUIRE_FALSE(config);
    CHECK(config.error().message == c.message);
  }
}

}  // namespace malachite
