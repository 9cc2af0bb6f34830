#include "config/server_config.h"

#include <catch2/catch.hpp>
#include <vector>

namespace malachite {
namespace {

Result<ServerConfig> Parse(std::vector<const char*> args, std::vector<const char*> env = {}) {
  args.insert(args.begin(), "malachite");
  env.push_back(nullptr);
  return ParseArgs(static_cast<int>(args.size()), args.data(), env.data());
}

std::string Dump(const ServerConfig& c) {
  std::string out =
      c.host + ":" + std::to_string(c.port) + " dir=" + c.data_dir + " log=" + c.log_level +
      " timeout=" + std::to_string(c.request_timeout_seconds) + " sync=" + (c.sync ? "on" : "off") +
      " map=" + std::to_string(c.map_size_mb) + " help=" + (c.help ? "yes" : "no");
  for (const auto& a : c.accounts) out += " [" + a.name + ":" + a.key1 + ":" + a.key2 + "]";
  return out;
}

}  // namespace

TEST_CASE("config: no arguments give the documented defaults", "[config]") {
  auto config = Parse({});
  REQUIRE(config);
  CHECK(Dump(*config) ==
        "127.0.0.1:10002 dir=./data log=info timeout=60 sync=on map=1048576 "
        "help=no [devstoreaccount1:" +
            std::string(kDevAccountKey) + ":]");
  CHECK(config->threads >= 1);
}

TEST_CASE("config: flags accept both --name value and --name=value", "[config]") {
  auto config =
      Parse({"--host", "0.0.0.0", "--port=0", "--data-dir", "/tmp/x", "--log-level=debug",
             "--threads", "3", "--map-size-mb=64", "--no-sync", "--request-timeout", "5"});
  REQUIRE(config);
  CHECK(Dump(*config) ==
        "0.0.0.0:0 dir=/tmp/x log=debug timeout=5 sync=off map=64 help=no "
        "[devstoreaccount1:" +
            std::string(kDevAccountKey) + ":]");
  CHECK(config->threads == 3);
}

TEST_CASE("config: --help is reported and the help text lists every option with its default",
          "[config]") {
  auto config = Parse({"--help"});
  REQUIRE(config);
  CHECK(config->help);
  std::string help = HelpText();
  for (auto flag : {"--host", "--port", "--data-dir", "--log-level", "--threads", "--map-size-mb",
                    "--request-timeout", "MALACHITE_ACCOUNTS"}) {
    CHECK(help.find(flag) != std::string::npos);
  }
  CHECK(help.find("default 10002") != std::string::npos);
}

TEST_CASE("config: bad flags fail with a one-line message naming the flag", "[config]") {
  struct Case {
    std::vector<const char*> args;
    std::string message;
  };
  std::vector<Case> cases = {
      {{"--bogus"}, "unknown option '--bogus' (try --help)"},
      {{"--bogus=1"}, "unknown option '--bogus' (try --help)"},
      {{"--port"}, "option '--port' needs a value"},
      {{"--port", "70000"}, "invalid value '70000' for --port (expected an integer in 0..65535)"},
      {{"--port", "12a"}, "invalid value '12a' for --port (expected an integer in 0..65535)"},
      {{"--threads", "0"}, "invalid value '0' for --threads (expected an integer in 1..1024)"},
      {{"--log-level", "loud"},
       "invalid value 'loud' for --log-level (expected trace, debug, info, warn, error, critical, "
       "off)"},
      {{"stray"}, "unexpected argument 'stray' (try --help)"},
  };
  for (const auto& c : cases) {
    auto config = Parse(c.args);
    REQUIRE_FALSE(config);
    CHECK(config.error().message == c.message);
  }
}

TEST_CASE("config: MALACHITE_ACCOUNTS adds accounts and may replace the dev key", "[config]") {
  auto config = Parse({}, {"PATH=/bin",
                           "MALACHITE_ACCOUNTS=acct1:a2V5MQ==;acct2:a2V5Mg==:a2V5Mw==;"
                           "devstoreaccount1:bmV3"});
  REQUIRE(config);
  CHECK(Dump(*config) ==
        "127.0.0.1:10002 dir=./data log=info timeout=60 sync=on map=1048576 "
        "help=no [devstoreaccount1:bmV3:] [acct1:a2V5MQ==:] "
        "[acct2:a2V5Mg==:a2V5Mw==]");
}

TEST_CASE("config: a malformed MALACHITE_ACCOUNTS entry is refused", "[config]") {
  auto no_key = Parse({}, {"MALACHITE_ACCOUNTS=acct1"});
  REQUIRE_FALSE(no_key);
  CHECK(no_key.error().message == "MALACHITE_ACCOUNTS: entry 'acct1' is not name:key");
  auto bad_key = Parse({}, {"MALACHITE_ACCOUNTS=acct1:not*base64"});
  REQUIRE_FALSE(bad_key);
  CHECK(bad_key.error().message == "MALACHITE_ACCOUNTS: the key of account 'acct1' is not base64");
}

TEST_CASE(
    "config: the query plan header is off by default and on with --explain or MALACHITE_EXPLAIN=1",
    "[config]") {
  auto defaults = Parse({});
  REQUIRE(defaults);
  CHECK_FALSE(defaults->explain);
  CHECK(defaults->query_budget_ms == 5000);
  auto flag = Parse({"--explain", "--query-budget-ms", "250"});
  REQUIRE(flag);
  CHECK(flag->explain);
  CHECK(flag->query_budget_ms == 250);
  auto env = Parse({}, {"MALACHITE_EXPLAIN=1"});
  REQUIRE(env);
  CHECK(env->explain);
  CHECK_FALSE(Parse({}, {"MALACHITE_EXPLAIN=yes"}));
  CHECK_FALSE(Parse({"--query-budget-ms", "0"}));
  const std::string help = HelpText();
  CHECK(help.find("--explain") != std::string::npos);
  CHECK(help.find("MALACHITE_EXPLAIN") != std::string::npos);
  CHECK(help.find("--query-budget-ms") != std::string::npos);
}

}  // namespace malachite
