#include "config/server_config.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <vector>

#include "config/man_page.h"
#include "tests/support/temp_dir.h"

namespace malachite {
namespace {

Result<ServerConfig> Parse(std::vector<const char*> args, std::vector<const char*> env = {}) {
  args.insert(args.begin(), "malachite");
  env.push_back(nullptr);
  return ParseArgs(static_cast<int>(args.size()), args.data(), env.data());
}

std::string Dump(const ServerConfig& c) {
  std::string out = c.host + ":" + std::to_string(c.port) + " dir=" + c.data_dir +
                    " log=" + c.log_level +
                    " timeout=" + std::to_string(c.request_timeout_seconds) +
                    " durability=" + std::string(DurabilityName(c.durability)) +
                    " map=" + std::to_string(c.map_size_mb) + " help=" + (c.help ? "yes" : "no");
  for (const auto& a : c.accounts) out += " [" + a.name + ":" + a.key1 + ":" + a.key2 + "]";
  return out;
}

}  // namespace

TEST_CASE("config: no arguments give the documented defaults", "[config]") {
  auto config = Parse({});
  REQUIRE(config);
  CHECK(Dump(*config) ==
        "127.0.0.1:10002 dir=./data log=info timeout=60 durability=process map=1048576 "
        "help=no [devstoreaccount1:" +
            std::string(kDevAccountKey) + ":]");
  CHECK(config->threads >= 1);
}

TEST_CASE("config: flags accept both --name value and --name=value", "[config]") {
  auto config =
      Parse({"--host", "0.0.0.0", "--port=0", "--data-dir", "/tmp/x", "--log-level=debug",
             "--threads", "3", "--map-size-mb=64", "--durability=full", "--request-timeout", "5"});
  REQUIRE(config);
  CHECK(Dump(*config) ==
        "0.0.0.0:0 dir=/tmp/x log=debug timeout=5 durability=full map=64 help=no "
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
        "127.0.0.1:10002 dir=./data log=info timeout=60 durability=process map=1048576 "
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

namespace malachite {
namespace {

// A config file in a temp dir, removed with the object.
class TempFile {
 public:
  explicit TempFile(const std::string& text) : path_(dir_.path() + "/malachite.conf") {
    std::ofstream file(path_, std::ios::binary);
    file << text;
    REQUIRE(file.flush());
  }
  const char* path() const { return path_.c_str(); }

 private:
  testing::TempDir dir_{"malachite-config"};
  std::string path_;
};

std::string Ops(const ServerConfig& c) {
  return "port=" + std::to_string(c.port) + " log=" + c.log_level + "/" + c.log_format +
         " access=" + c.access_log_level + " loose=" + (c.loose ? "on" : "off") +
         " mem=" + (c.in_memory ? "on" : "off") +
         " durability=" + std::string(DurabilityName(c.durability)) +
         " explain=" + (c.explain ? "on" : "off") + " cert=" + c.cert_file + " key=" + c.key_file +
         " accounts=" + std::to_string(c.accounts.size());
}

}  // namespace

TEST_CASE("config: flags beat the environment, which beats the config file, which beats defaults",
          "[config]") {
  TempFile file(
      "# a comment\n"
      "port = 1111\n"
      "log-level = debug\n"
      "log_format = \"json\"\n"
      "  access-log-level=info  \n"
      "\n"
      "loose = true\n"
      "accounts = fileacct:a2V5MQ==\n");
  auto from_file = Parse({"--config", file.path()});
  REQUIRE(from_file);
  CHECK(Ops(*from_file) ==
        "port=1111 log=debug/json access=info loose=on mem=off durability=process explain=off "
        "cert= key= "
        "accounts=2");
  CHECK(from_file->config_file == file.path());

  auto env_over_file =
      Parse({}, {(std::string("MALACHITE_CONFIG=") + file.path()).c_str(), "MALACHITE_PORT=2222",
                 "MALACHITE_LOOSE=0", "MALACHITE_ACCOUNTS=envacct:a2V5Mg=="});
  REQUIRE(env_over_file);
  CHECK(Ops(*env_over_file) ==
        "port=2222 log=debug/json access=info loose=off mem=off durability=process explain=off "
        "cert= key= "
        "accounts=3");

  auto flags_over_env =
      Parse({"--config", file.path(), "--port=3333", "--loose", "--log-format", "text"},
            {"MALACHITE_PORT=2222", "MALACHITE_LOOSE=0"});
  REQUIRE(flags_over_env);
  CHECK(Ops(*flags_over_env) ==
        "port=3333 log=debug/text access=info loose=on mem=off durability=process explain=off "
        "cert= key= "
        "accounts=2");
}

TEST_CASE("config: every option has a MALACHITE_ variable, switches take 1/0/true/false/on/off",
          "[config]") {
  auto config =
      Parse({}, {"MALACHITE_IN_MEMORY=on", "MALACHITE_EXPLAIN=true", "MALACHITE_HOST=0.0.0.0",
                 "MALACHITE_MAP_SIZE_MB=64", "MALACHITE_CERT=/c.pem", "MALACHITE_KEY=/k.pem"});
  REQUIRE(config);
  // --in-memory implies durability none (nothing to sync).
  CHECK(Ops(*config) ==
        "port=10002 log=info/text access=debug loose=off mem=on durability=none explain=on "
        "cert=/c.pem key=/k.pem accounts=1");
  CHECK(config->host == "0.0.0.0");
  CHECK(config->map_size_mb == 64);
  CHECK(config->space_reserve_mb == 2);
  auto reserve = Parse({"--space-reserve-mb", "0"}, {"MALACHITE_SPACE_RESERVE_MB=8"});
  REQUIRE(reserve);
  CHECK(reserve->space_reserve_mb == 0);  // the flag wins over the variable
  CHECK(Parse({}, {"MALACHITE_SPACE_RESERVE_MB=8"})->space_reserve_mb == 8);
  CHECK(Parse({"--space-reserve-mb", "4097"}).error().message ==
        "invalid value '4097' for --space-reserve-mb (expected an integer in 0..4096)");
  CHECK(config->compaction);  // auto by default
  CHECK_FALSE(Parse({"--compaction", "off"})->compaction);
  CHECK_FALSE(Parse({}, {"MALACHITE_COMPACTION=off"})->compaction);
  CHECK(Parse({"--compaction=auto"}, {"MALACHITE_COMPACTION=off"})->compaction);
  CHECK(Parse({"--compaction", "never"}).error().message ==
        "invalid value 'never' for --compaction (expected auto or off)");
  auto off = Parse({"--explain=0", "--in-memory=false"});
  REQUIRE(off);
  CHECK_FALSE(off->explain);
  CHECK_FALSE(off->in_memory);
  auto bad = Parse({}, {"MALACHITE_LOOSE=maybe"});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message ==
        "invalid value 'maybe' for MALACHITE_LOOSE (expected 1, 0, true, false, on or off)");
}

TEST_CASE("config: config file mistakes name the file and line", "[config]") {
  TempFile unknown("port = 1\nbogus = 2\n");
  auto a = Parse({"--config", unknown.path()});
  REQUIRE_FALSE(a);
  CHECK(a.error().message ==
        std::string(unknown.path()) + ":2: unknown option 'bogus' (try --help)");
  TempFile bad_value("\n\nport = http\n");
  auto b = Parse({"--config", bad_value.path()});
  REQUIRE_FALSE(b);
  CHECK(b.error().message == std::string(bad_value.path()) +
                                 ":3: invalid value 'http' for port (expected an integer in "
                                 "0..65535)");
  TempFile no_equals("port 1\n");
  auto c = Parse({"--config", no_equals.path()});
  REQUIRE_FALSE(c);
  CHECK(c.error().message == std::string(no_equals.path()) + ":1: expected 'name = value'");
  TempFile probe("probe = http://x/\n");
  auto d = Parse({"--config", probe.path()});
  REQUIRE_FALSE(d);
  CHECK(d.error().message == std::string(probe.path()) + ":1: 'probe' is not allowed in a file");
  auto missing = Parse({"--config", "/nonexistent/malachite.conf"});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message == "cannot read config file '/nonexistent/malachite.conf'");
}

TEST_CASE("config: log format, access log level and TLS files are checked", "[config]") {
  struct Case {
    std::vector<const char*> args;
    std::string message;
  };
  std::vector<Case> cases = {
      {{"--log-format", "xml"}, "invalid value 'xml' for --log-format (expected text or json)"},
      {{"--access-log-level", "loud"},
       "invalid value 'loud' for --access-log-level (expected trace, debug, info, warn, error, "
       "critical, off)"},
      {{"--cert", "c.pem"}, "--cert goes with --key (PEM) or --cert-password (PKCS#12 .pfx)"},
      {{"--key", "k.pem"}, "--cert goes with --key (PEM) or --cert-password (PKCS#12 .pfx)"},
      {{"--probe"}, "option '--probe' needs a value"},
  };
  for (const auto& c : cases) {
    auto config = Parse(c.args);
    REQUIRE_FALSE(config);
    CHECK(config.error().message == c.message);
  }
  auto probe = Parse({"--probe", "http://127.0.0.1:10002/-/ready"});
  REQUIRE(probe);
  CHECK(probe->probe_url == "http://127.0.0.1:10002/-/ready");
}

TEST_CASE("config: --help and the man page list every option with its default and variable",
          "[config]") {
  const std::string help = HelpText();
  const std::string man = ManPage();
  for (const OptionHelp& option : OptionHelps()) {
    CHECK(help.find(option.flag) != std::string::npos);
    if (!option.env.empty()) CHECK(help.find(option.env) != std::string::npos);
    if (!option.default_text.empty()) {
      CHECK(help.find("default " + option.default_text) != std::string::npos);
    }
    std::string roff_flag;
    for (char ch : option.flag) roff_flag += ch == '-' ? std::string("\\-") : std::string(1, ch);
    CHECK(man.find(".B " + roff_flag) != std::string::npos);
  }
  for (auto text : {"--in-memory", "--loose", "--log-format", "--access-log-level", "--cert",
                    "--key", "--config", "MALACHITE_CONFIG", "--probe", "--partition-rate",
                    "Precedence: flags > environment > config file > defaults"}) {
    CHECK(help.find(text) != std::string::npos);
  }
  CHECK(help.find("--man") == std::string::npos);  // build plumbing, not for users
  CHECK(man.substr(0, 15) == ".TH MALACHITE 1");
}

}  // namespace malachite

namespace malachite {

TEST_CASE("config: throttling options take the same three sources as the others", "[config]") {
  TempFile file("partition-rate = 100\nthrottling = off\n");
  auto from_file = Parse({"--config", file.path()});
  REQUIRE(from_file);
  CHECK(from_file->throttle.partition_rate == 100);
  CHECK_FALSE(from_file->throttle.enabled);
  auto env_over_file = Parse({"--config", file.path()}, {"MALACHITE_PARTITION_RATE=200"});
  REQUIRE(env_over_file);
  CHECK(env_over_file->throttle.partition_rate == 200);
  auto flag_over_env =
      Parse({"--config", file.path(), "--partition-rate", "300"}, {"MALACHITE_PARTITION_RATE=200"});
  REQUIRE(flag_over_env);
  CHECK(flag_over_env->throttle.partition_rate == 300);
  TempFile bad("partition-rate = fast\n");
  auto error = Parse({"--config", bad.path()});
  REQUIRE_FALSE(error);
  CHECK(error.error().message.rfind(std::string(bad.path()) + ":1: invalid value 'fast'", 0) == 0);
}

TEST_CASE("config: --durability takes process or full, --no-sync is an alias of process",
          "[config]") {
  auto full = Parse({"--durability", "full", "--sync-interval-ms", "250"});
  REQUIRE(full);
  CHECK(full->durability == Durability::kFull);
  CHECK(full->sync_interval_ms == 250);
  auto from_env = Parse({}, {"MALACHITE_DURABILITY=full"});
  REQUIRE(from_env);
  CHECK(from_env->durability == Durability::kFull);
  auto alias = Parse({"--durability=full", "--no-sync"});
  REQUIRE(alias);
  CHECK(alias->durability == Durability::kProcess);
  auto none = Parse({"--durability", "none"});
  REQUIRE_FALSE(none);
  CHECK(none.error().message == "invalid value 'none' for --durability (expected process or full)");
  auto zero = Parse({"--sync-interval-ms", "0"});
  REQUIRE_FALSE(zero);
  CHECK(zero.error().message ==
        "invalid value '0' for --sync-interval-ms (expected an integer in 1..3600000)");
  // The in-memory store has nothing to sync, whatever was asked.
  auto memory = Parse({"--durability", "full", "--in-memory"});
  REQUIRE(memory);
  CHECK(memory->durability == Durability::kNone);
  CHECK(HelpText().find("--durability process|full") != std::string::npos);
}

}  // namespace malachite

namespace malachite {

TEST_CASE("config: --admin-open and --body-memory-mb, from flags and MALACHITE_ variables",
          "[config]") {
  auto defaults = Parse({});
  REQUIRE(defaults);
  CHECK_FALSE(defaults->admin_open);
  CHECK(defaults->body_memory_mb == 256);
  auto flags = Parse({"--admin-open", "--body-memory-mb", "64"});
  REQUIRE(flags);
  CHECK(flags->admin_open);
  CHECK(flags->body_memory_mb == 64);
  auto env = Parse({}, {"MALACHITE_ADMIN_OPEN=1", "MALACHITE_BODY_MEMORY_MB=0"});
  REQUIRE(env);
  CHECK(env->admin_open);
  CHECK(env->body_memory_mb == 0);
  auto bad = Parse({"--body-memory-mb", "lots"});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message ==
        "invalid value 'lots' for --body-memory-mb (expected an integer in 0..1048576)");
  const std::string help = HelpText();
  CHECK(help.find("--admin-open") != std::string::npos);
  CHECK(help.find("MALACHITE_BODY_MEMORY_MB") != std::string::npos);
}

}  // namespace malachite
