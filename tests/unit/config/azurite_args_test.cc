#include "config/azurite_args.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <vector>

#include "tests/support/temp_dir.h"

namespace malachite {
namespace {

Result<AzuriteTableArgs> Parse(std::vector<const char*> args, std::vector<const char*> env = {}) {
  args.insert(args.begin(), "azurite-table");
  env.push_back(nullptr);
  return ParseAzuriteTableArgs(static_cast<int>(args.size()), args.data(), 1, env.data());
}

std::string Refusal(std::vector<const char*> args, std::vector<const char*> env = {}) {
  auto parsed = Parse(std::move(args), std::move(env));
  return parsed ? std::string("(accepted)") : parsed.error().message;
}

bool Warned(const AzuriteTableArgs& args, std::string_view prefix) {
  for (const std::string& line : args.warnings) {
    if (line.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("azurite-table: the name of the link decides, not its directory", "[config][azurite]") {
  CHECK(IsAzuriteTableName("azurite-table"));
  CHECK(IsAzuriteTableName("/usr/local/bin/azurite-table"));
  CHECK_FALSE(IsAzuriteTableName("/usr/bin/malachite"));
  CHECK_FALSE(IsAzuriteTableName("azurite"));
  CHECK_FALSE(IsAzuriteTableName("azurite-table/malachite"));
}

TEST_CASE("azurite-table: no flags give Azurite's defaults", "[config][azurite]") {
  auto args = Parse({});
  REQUIRE(args);
  const ServerConfig& c = args->config;
  CHECK(c.host == "127.0.0.1");
  CHECK(c.port == 10002);
  // Azurite: the workspace is the working directory.
  CHECK(c.data_dir == (std::filesystem::current_path() / "__malachite_table__").string());
  CHECK(c.access_log_level == "info");  // Azurite logs each request unless --silent
  CHECK(c.azurite_lines);
  CHECK_FALSE(c.loose);
  CHECK_FALSE(c.skip_api_version_check);
  CHECK(c.host_style);
  REQUIRE(c.accounts.size() == 1);
  CHECK(c.accounts[0].name == kDevAccountName);
  CHECK(args->warnings.empty());
}

TEST_CASE("azurite-table: every table flag maps onto Malachite's option", "[config][azurite]") {
  testing::TempDir dir;
  const std::string debug = dir.path() + "/debug.log";
  auto args = Parse({"--tableHost", "0.0.0.0", "--tablePort=10102", "--tableKeepAliveTimeout", "30",
                     "-l", dir.path().c_str(), "-s", "--skipApiVersionCheck",
                     "--disableProductStyleUrl", "--debug", debug.c_str()});
  REQUIRE(args);
  const ServerConfig& c = args->config;
  CHECK(c.host == "0.0.0.0");
  CHECK(c.port == 10102);
  CHECK(c.request_timeout_seconds == 30);
  CHECK(c.data_dir == testing::PathIn(dir.path(), "__malachite_table__"));
  CHECK(c.access_log_level == "debug");  // in the -d file only
  CHECK(c.skip_api_version_check);
  CHECK_FALSE(c.loose);  // authentication stays on
  CHECK_FALSE(c.host_style);
  CHECK(c.debug_log_file == debug);
  CHECK_FALSE(c.in_memory);

  auto memory = Parse({"--inMemoryPersistence"});
  REQUIRE(memory);
  CHECK(memory->config.in_memory);
  CHECK(memory->config.durability == Durability::kNone);
}

TEST_CASE("azurite-table: flags without effect are accepted with one warning each",
          "[config][azurite]") {
  auto args = Parse({"--loose", "--disableTelemetry", "-L"});
  REQUIRE(args);
  CHECK_FALSE(args->config.loose);
  CHECK(args->warnings.size() == 2);
  CHECK(Warned(*args, "--loose: no effect"));
  CHECK(Warned(*args, "--disableTelemetry: no effect"));
}

TEST_CASE("azurite-table: certificates as Azurite reads them", "[config][azurite]") {
  auto pem = Parse({"--cert", "c.pem", "--key", "k.pem"});
  REQUIRE(pem);
  CHECK(pem->config.cert_file == "c.pem");
  CHECK(pem->config.key_file == "k.pem");
  CHECK(pem->config.cert_password.empty());

  auto pfx = Parse({"--cert", "c.pfx", "--pwd", "secret", "--oauth", "basic"});
  REQUIRE(pfx);
  CHECK(pfx->config.cert_file == "c.pfx");
  CHECK(pfx->config.cert_password == "secret");
  CHECK(pfx->config.key_file.empty());
  CHECK(pfx->config.oauth.enabled);

  // Azurite: a certificate without --key or --pwd serves plain HTTP.
  auto alone = Parse({"--cert", "c.pem"});
  REQUIRE(alone);
  CHECK(alone->config.cert_file.empty());
  CHECK(Warned(*alone, "--cert needs --key (PEM) or --pwd (PFX)"));

  // Azurite: OAuth needs HTTPS, and knows only "basic".
  auto plain_oauth = Parse({"--oauth", "basic"});
  REQUIRE(plain_oauth);
  CHECK_FALSE(plain_oauth->config.oauth.enabled);
  CHECK(Warned(*plain_oauth, "--oauth basic: no effect without --cert"));
  auto other = Parse({"--oauth", "strict", "--cert", "c.pem", "--key", "k.pem"});
  REQUIRE(other);
  CHECK_FALSE(other->config.oauth.enabled);
  CHECK(Warned(*other, "--oauth strict: no effect"));
}

TEST_CASE("azurite-table: AZURITE_ACCOUNTS replaces the default account, as in Azurite",
          "[config][azurite]") {
  auto args = Parse({}, {"AZURITE_ACCOUNTS=acct1:a2V5MQ==:a2V5Mg==;acct2:a2V5Mw==;"});
  REQUIRE(args);
  const auto& accounts = args->config.accounts;
  REQUIRE(accounts.size() == 2);
  CHECK(accounts[0].name == "acct1");
  CHECK(accounts[0].key1 == "a2V5MQ==");
  CHECK(accounts[0].key2 == "a2V5Mg==");
  CHECK(accounts[1].name == "acct2");

  CHECK(Refusal({}, {"AZURITE_ACCOUNTS=acct1"}) ==
        "azurite-table: AZURITE_ACCOUNTS: entry 'acct1' is not name:key");
  CHECK(Refusal({}, {"AZURITE_ACCOUNTS=acct1:not base64!"}) ==
        "azurite-table: AZURITE_ACCOUNTS: the key of account 'acct1' is not base64");
  CHECK(Refusal({}, {"AZURITE_ACCOUNTS=;;"}) == "azurite-table: AZURITE_ACCOUNTS lists no account");
}

TEST_CASE("azurite-table: Azurite's and Malachite's variables both apply", "[config][azurite]") {
  auto skip = Parse({}, {"AZURITE_SKIP_API_VERSION_CHECK=true", "MALACHITE_LOG_LEVEL=debug"});
  REQUIRE(skip);
  CHECK(skip->config.skip_api_version_check);
  CHECK(skip->config.log_level == "debug");
  // Azurite: only the exact value "true".
  auto not_true = Parse({}, {"AZURITE_SKIP_API_VERSION_CHECK=True"});
  REQUIRE(not_true);
  CHECK_FALSE(not_true->config.skip_api_version_check);
  CHECK(Refusal({}, {"MALACHITE_PORT=x"}) ==
        "invalid value 'x' for MALACHITE_PORT (expected an integer in 0..65535)");
}

TEST_CASE("azurite-table: what it cannot honour is refused with one line", "[config][azurite]") {
  CHECK(Refusal({"--blobHost", "0.0.0.0"})
            .find("azurite-table: --blobHost is an option of Azurite's blob or queue service") ==
        0);
  CHECK(Refusal({"--queuePort=10001"}).find("azurite-table: --queuePort is an option") == 0);
  CHECK(Refusal({"--tablehost", "x"}) ==
        "azurite-table: The option \"--tablehost\" is unknown (see --help)");
  CHECK(Refusal({"-x"}) == "azurite-table: The option \"-x\" is unknown (see --help)");
  CHECK(Refusal({"serve"}) ==
        "azurite-table: unexpected argument 'serve' (options start with --; see --help)");
  CHECK(Refusal({"--tablePort", "70000"}) ==
        "azurite-table: invalid value '70000' for --tablePort (expected an integer in 0..65535)");
  CHECK(Refusal({"--tablePort"}) == "azurite-table: --tablePort needs a value <n>");
  CHECK(Refusal({"-d", "--loose"}) == "azurite-table: -d needs a value <file>");
  CHECK(Refusal({"--debug="}) ==
        "azurite-table: Must provide a debug log file path for parameter -d or --debug");
  CHECK(Refusal({"--loose=false"}) == "azurite-table: --loose takes no value");
  CHECK(Refusal({"--inMemoryPersistence", "-l", "/tmp"}) ==
        "azurite-table: The --inMemoryPersistence option is not supported when the --location "
        "option is set.");
}

TEST_CASE("azurite-table: Azurite's own table data in the workspace is pointed out",
          "[config][azurite]") {
  testing::TempDir dir;
  std::ofstream(dir.path() + "/__azurite_db_table__.json") << "{}";
  auto args = Parse({"-l", dir.path().c_str()});
  REQUIRE(args);
  REQUIRE(args->warnings.size() == 1);
  CHECK(args->warnings[0].find("malachite import --from-azurite " +
                               testing::PathIn(dir.path(), "__azurite_db_table__.json")) !=
        std::string::npos);
  // Once Malachite has its own data there, the hint is gone.
  std::filesystem::create_directories(dir.path() + "/__malachite_table__");
  std::ofstream(dir.path() + "/__malachite_table__/data.mdb") << "";
  auto again = Parse({"-l", dir.path().c_str()});
  REQUIRE(again);
  CHECK(again->warnings.empty());
}

TEST_CASE("azurite-table: --help lists every Azurite option", "[config][azurite]") {
  const std::string help = AzuriteTableHelpText();
  for (auto flag :
       {"--tableHost", "--tablePort", "--tableKeepAliveTimeout", "-l, --location", "-s, --silent",
        "-L, --loose", "--skipApiVersionCheck", "--disableProductStyleUrl", "--inMemoryPersistence",
        "-d, --debug", "--oauth", "--cert", "--key", "--pwd", "--disableTelemetry",
        "AZURITE_ACCOUNTS", "AZURITE_SKIP_API_VERSION_CHECK"}) {
    CHECK(help.find(flag) != std::string::npos);
  }
  auto help_flag = Parse({"-h"});
  REQUIRE(help_flag);
  CHECK(help_flag->config.help);
  auto version = Parse({"--version"});
  REQUIRE(version);
  CHECK(version->config.version);
}

}  // namespace malachite
