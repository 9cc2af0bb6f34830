// The `malachite` binary: parse the configuration, bind the port, open the store, serve until
// SIGINT/SIGTERM, then drain and close everything in order.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cli_main.h"
#include "cli/seed_dir.h"
#include "common/clock.h"
#include "common/utf8_path.h"
#include "config/azurite_args.h"
#include "config/man_page.h"
#include "config/server_config.h"
#include "platform/files.h"
#include "platform/process.h"
#include "server/admin/account_endpoints.h"
#include "server/admin/data_endpoints.h"
#include "server/auth/bearer.h"
#include "server/net/listener.h"
#include "server/net/logging.h"
#include "server/net/probe.h"
#include "server/net/tls_context.h"
#include "server/pipeline/service.h"
#include "storage/store.h"

namespace {

using namespace malachite;

// --in-memory: a fresh directory on tmpfs when there is one (Linux's /dev/shm), else in the
// system's temporary directory (TMPDIR, /tmp; Windows: %TEMP%). Returns "" on failure.
std::string MakeMemoryDir() {
  std::string base = "/dev/shm";
  if (platform::CheckDirWritable(base)) {
    std::error_code ec;
    base = PathUtf8(std::filesystem::temp_directory_path(ec));
    if (ec) base = "/tmp";
  }
  std::error_code ec;
  return platform::MakeUniqueDir(
      base + "/malachite-mem-" + std::to_string(platform::CurrentProcessId()) + "-", ec);
}

// Removes the in-memory directory however main() returns.
struct DirRemover {
  std::string dir;
  void RemoveNow() {
    if (dir.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(Utf8Path(dir), ignored);
    dir.clear();
  }
  ~DirRemover() { RemoveNow(); }
};

// What --oauth accepts and who holds which role.
void LogOAuth(const OAuthConfig& oauth) {
  if (!oauth.enabled) return;
  spdlog::info("Entra ID bearer tokens accepted (tenant {})",
               oauth.tenant.empty() ? "any" : oauth.tenant);
  if (oauth.issuer_keys_file.empty()) {
    spdlog::warn(
        "bearer token signatures are NOT verified (no --oauth-issuer-keys): any well-formed "
        "token with a valid audience, issuer and lifetime is accepted");
  } else {
    spdlog::info("bearer token signatures verified with the keys of {}", oauth.issuer_keys_file);
  }
  for (const RoleAssignment& entry : oauth.roles) {
    spdlog::info("role: {} -> {}", entry.principal, entry.roles);
  }
}

// What an acknowledged write survives, in the README's words.
std::string DurabilityPromise(const ServerConfig& config) {
  switch (config.durability) {
    case Durability::kProcess:
      return "process (acknowledged writes survive kill -9; a host crash loses at most the last " +
             std::to_string(config.sync_interval_ms) + " ms; --durability full waits for fsync)";
    case Durability::kFull:
      return "full (each acknowledgement waits for its commit's fsync; a host crash may undo "
             "only the last commit, synced within " +
             std::to_string(config.sync_interval_ms) + " ms)";
    case Durability::kNone:
      return "none (in memory: nothing survives the process)";
  }
  return "?";
}

void LogBanner(const ServerConfig& config, std::uint16_t port, bool secure) {
  const AccountConfig& account = config.accounts.front();
  const char* scheme = secure ? "https" : "http";
  // A wildcard address is not something a client can connect to.
  const std::string host =
      config.host == "0.0.0.0" || config.host == "::" ? "127.0.0.1" : config.host;
  spdlog::info("Malachite {} (Azure Table storage emulator)", kMalachiteVersion);
  spdlog::info("serving {}://{}:{} with {} threads; data {}{}", scheme, config.host, port,
               config.threads, config.in_memory ? "in memory (deleted at exit)" : "in ",
               config.in_memory ? "" : config.data_dir);
  spdlog::info(
      "connection string: DefaultEndpointsProtocol={};AccountName={};AccountKey={};"
      "TableEndpoint={}://{}:{}/{};",
      scheme, account.name, account.key1, scheme, host, port, account.name);
  if (config.host_style) {
    spdlog::info("host-style URLs too: TableEndpoint={}://{}.localhost:{}", scheme, account.name,
                 port);
  }
  LogOAuth(config.oauth);
  spdlog::info("durability: {}", DurabilityPromise(config));
  if (config.loose) spdlog::warn("--loose: authentication and x-ms-version are not checked");
  if (!spdlog::should_log(spdlog::level::from_str(config.access_log_level))) {
    spdlog::info("access log off at this level (--access-log-level info shows each request)");
  }
}

// --seed: the fixtures, read and checked before anything else starts.
Result<std::vector<TableContent>> LoadSeed(const ServerConfig& config) {
  if (config.seed_dir.empty()) return std::vector<TableContent>{};
  std::vector<std::string> skipped;
  auto seed = cli::LoadSeedDir(config.seed_dir, config.accounts.front().name, &skipped);
  if (!seed) return seed;
  for (const std::string& file : skipped) spdlog::warn("--seed: skipping {}", file);
  for (const TableContent& table : *seed) {
    const bool known = std::any_of(config.accounts.begin(), config.accounts.end(),
                                   [&](const AccountConfig& a) { return a.name == table.account; });
    if (!known)
      spdlog::warn("--seed: table {} is for unknown account {}", table.table, table.account);
  }
  return seed;
}

// Loads the fixtures into a data directory that was empty before this start.
Result<void> SeedFreshStore(storage::Store& store, const server::DataEndpoints& data,
                            const std::string& dir) {
  auto summary = server::ResetAccounts(store, data.accounts, data.seed);
  if (!summary) return tl::unexpected(summary.error());
  spdlog::info("--seed {}: {} tables, {} entities loaded into the new data directory", dir,
               summary->tables_seeded, summary->entities_seeded);
  return {};
}

int Serve(ServerConfig& config) {
  auto seed = LoadSeed(config);
  if (!seed) {
    std::fprintf(stderr, "malachite: %s\n", seed.error().message.c_str());
    return 1;
  }
  DirRemover memory_dir;
  if (config.in_memory) {
    memory_dir.dir = MakeMemoryDir();
    if (memory_dir.dir.empty()) {
      std::fprintf(stderr, "malachite: cannot create a temp dir for --in-memory\n");
      return 1;
    }
    config.data_dir = memory_dir.dir;
  }
  // Azurite (table/main.ts): the start line names the configured address, before binding.
  if (config.azurite_lines) {
    std::printf("Azurite Table service is starting on %s:%u\n", config.host.c_str(),
                static_cast<unsigned>(config.port));
    std::fflush(stdout);
  }
  // Bind first: a busy port fails before the data directory is touched.
  auto listener = server::Listener::Open(config);
  if (!listener) {
    std::fprintf(stderr, "malachite: %s\n", listener.error().message.c_str());
    return 1;
  }
  const std::uint16_t port = (*listener)->port();

  std::error_code ignored;
  const bool fresh = !std::filesystem::exists(Utf8Path(config.data_dir + "/data.mdb"), ignored);
  storage::StoreOptions options;
  options.data_dir = config.data_dir;
  options.map_size_bytes = config.map_size_mb << 20;
  options.on_map_growth = [](std::uint64_t from, std::uint64_t to) {
    spdlog::info("storage: the LMDB map grew from {} MiB to {} MiB", from >> 20, to >> 20);
  };
  options.compact_at_open = config.compaction;
  options.compact_while_serving = config.compaction;
  options.on_compaction = [](const storage::CompactionReport& report) {
    const char* when = report.at_open ? "at start" : "while serving";
    if (report.error) {
      spdlog::warn("storage: compacting data.mdb {} failed, it is kept as it was: {}", when,
                   report.error->message);
      return;
    }
    spdlog::info(
        "storage: compacted data.mdb {} (free pages left by deleted data): {:.1f} MiB -> "
        "{:.1f} MiB{}",
        when, report.bytes_before / 1048576.0, report.bytes_after / 1048576.0,
        report.at_open ? "" : fmt::format(", writes waited {} ms", report.took.count()));
  };
  options.space_reserve_bytes = config.space_reserve_mb << 20;
  options.durability = config.durability;
  options.sync_interval = std::chrono::milliseconds(config.sync_interval_ms);
  options.on_background_error = [](const Error& error) {
    spdlog::error("storage: {} (retried at the next interval)", error.message);
  };
  auto store = storage::Store::Open(options, SystemClock::Instance());
  if (!store) {
    std::fprintf(stderr, "malachite: %s\n", store.error().message.c_str());
    return 1;
  }
  server::DataEndpoints data{store->get(), {}, std::move(*seed)};
  for (const AccountConfig& account : config.accounts) data.accounts.push_back(account.name);
  if (fresh && !data.seed.empty()) {
    if (auto ok = SeedFreshStore(**store, data, config.seed_dir); !ok) {
      std::fprintf(stderr, "malachite: --seed: %s\n", ok.error().message.c_str());
      return 1;
    }
  }
  // LMDB: every file is open (and mapped) now and nothing reopens them by name, so unlinking
  // them leaves the store working and guarantees no leftovers, even after kill -9.
  memory_dir.RemoveNow();
  // With --port 0 the bound port is only known now; it is the default Host of base URLs.
  config.port = port;
  server::Service service(config, **store, SystemClock::Instance());
  data.directory = &service.accounts();
  data.clock = &SystemClock::Instance();
  data.forget_account = [&service](std::string_view account) { service.ForgetAccount(account); };
  auto runtime_accounts =
      server::LoadRuntimeAccounts(**store, service.accounts(), config.transient_accounts);
  if (!runtime_accounts) {
    std::fprintf(stderr, "malachite: accounts made at run time: %s\n",
                 runtime_accounts.error().message.c_str());
    return 1;
  }

  LogBanner(config, port, (*listener)->secure());
  if (*runtime_accounts > 0) {
    if (config.transient_accounts) {
      spdlog::info("deleted {} account(s) an earlier run made (--transient-accounts)",
                   *runtime_accounts);
    } else {
      spdlog::info("serving {} account(s) made at run time by POST /-/accounts", *runtime_accounts);
    }
  }
  // The limits in force (spec §12), the rebalancing emulation and fault rules.
  for (const std::string& line : service.traffic().Describe()) spdlog::info("{}", line);
  // The traffic history behind the explorer's charts: one sample a second.
  service.insight().StartSampler();
  spdlog::info("explorer: {}://{}:{}/-/explorer (advisor: /-/advisor, bill: /-/bill)",
               (*listener)->secure() ? "https" : "http",
               config.host == "0.0.0.0" || config.host == "::" ? "127.0.0.1" : config.host, port);
  // The open-file limit, idle-connection closing and the body memory budget.
  for (const std::string& line : (*listener)->Describe()) spdlog::info("{}", line);
  // An earlier run ended with the disk full (it gave the reserve back), or the disk has no room
  // for the reserve now: say so before the first refused write does.
  if ((*store)->SpaceAlarmRaised()) {
    spdlog::warn(
        "data disk full ({}): space alarm raised; deletes are served, writes that add data get 409 "
        "InsufficientAccountResources until deletes or the disk free space",
        config.data_dir);
  }
  if (config.admin_open && !config.loose) spdlog::warn("--admin-open: every client may use /-/");
  // Tests parse this line to learn the port (--port 0).
  std::printf("malachite: listening on %s:%u\n", config.host.c_str(), static_cast<unsigned>(port));
  // Scripts and Testcontainers that start Azurite's table service wait for this line.
  if (config.azurite_lines) {
    std::printf("Azurite Table service successfully started on %s:%u\n", config.host.c_str(),
                static_cast<unsigned>(port));
  }
  std::fflush(stdout);

  (*listener)->Run(service, **store, &data);
  if (config.transient_accounts) {
    auto deleted = server::DeleteRuntimeAccounts(**store, service.accounts());
    if (!deleted) spdlog::error("--transient-accounts: {}", deleted.error().message);
    if (deleted && *deleted > 0) spdlog::info("deleted {} account(s) made at run time", *deleted);
  }
  if (config.azurite_lines) {
    std::printf("Azurite Table service is closing...\n");
    std::fflush(stdout);
  }
  spdlog::info("stopped accepting; closing the store");
  // The store first (drains the writer, whose completions post into the stopped I/O context),
  // then the listener (destroys the I/O context and any idle sessions).
  store->reset();
  listener->reset();
  spdlog::info("bye");
  if (config.azurite_lines) std::printf("Azurite Table service successfully closed\n");
  return 0;
}

// Everything after parsing: the informational flags, the checks that stop a bad start with exit
// status 2, then the server. `warnings`: lines to log once logging is set up.
int Start(ServerConfig& config, const std::vector<std::string>& warnings) {
  if (config.help) {
    std::fputs((config.azurite_lines ? AzuriteTableHelpText() : HelpText()).c_str(), stdout);
    return 0;
  }
  if (config.man) {
    std::fputs(ManPage().c_str(), stdout);
    return 0;
  }
  if (config.version) {
    std::printf("malachite %s\n", std::string(kMalachiteVersion).c_str());
    return 0;
  }
  if (!config.probe_url.empty()) {
    const std::string& probe = config.probe_url;
    return server::Probe(probe.front() == '/' ? server::SelfProbeUrl(config, probe) : probe);
  }
  // Bad fault rules (--fault, MALACHITE_FAULTS, --faults-file) stop startup like a bad flag.
  if (auto rules = server::TrafficControl::LoadRules(config.throttle); !rules) {
    std::fprintf(stderr, "malachite: %s\n", std::string(rules.error().UserMessage()).c_str());
    return 2;
  }
  // A bad --oauth-issuer-keys file stops startup too.
  if (config.oauth.enabled) {
    if (auto bearer = server::BearerVerifier::Create(config.oauth); !bearer) {
      std::fprintf(stderr, "malachite: %s\n", bearer.error().message.c_str());
      return 2;
    }
  }
  // And a certificate that does not load (a wrong PFX password, a key of another certificate).
  if (auto tls = server::MakeTlsContext(config); !tls) {
    std::fprintf(stderr, "malachite: %s\n", tls.error().message.c_str());
    return 2;
  }
  if (auto ok = server::ConfigureLogging(config); !ok) {
    std::fprintf(stderr, "malachite: %s\n", ok.error().message.c_str());
    return 2;
  }
  for (const std::string& line : warnings) spdlog::warn("{}", line);
  return Serve(config);
}

// `strings` as argv and envp are: pointers into them (valid while they live), then a null.
std::vector<const char*> NullEnded(const std::vector<std::string>& strings) {
  std::vector<const char*> list;
  list.reserve(strings.size() + 1);
  for (const std::string& text : strings) list.push_back(text.c_str());
  list.push_back(nullptr);
  return list;
}

}  // namespace

int main(int argc, char** argv, char** envp) {
  platform::WriteStdioAsBytes();
  // Every argument in UTF-8, also on Windows, whose argv is in the ANSI code page
  // (platform/process.h): a --data-dir named in any script reaches the store as it was typed.
  const std::vector<std::string> arguments = platform::Utf8Arguments(argc, argv);
  const std::vector<const char*> utf8_argv = NullEnded(arguments);
  const int count = static_cast<int>(arguments.size());
  const char* const* args = utf8_argv.data();
  // And the environment (MALACHITE_DATA_DIR, MALACHITE_CONFIG, ...), the same way.
  const std::vector<std::string> variables = platform::Utf8Environment(envp);
  const std::vector<const char*> utf8_envp = NullEnded(variables);
  const char* const* env = utf8_envp.data();
  // `azurite-table ...` (a link of that name) or `malachite azurite-table ...`: Azurite's table
  // command line (config/azurite_args.h).
  const bool as_link = count > 0 && IsAzuriteTableName(args[0]);
  if (as_link || (count > 1 && std::string_view(args[1]) == "azurite-table")) {
    auto azurite = ParseAzuriteTableArgs(count, args, as_link ? 1 : 2, env);
    if (!azurite) {
      std::fprintf(stderr, "%s\n", azurite.error().message.c_str());
      return 2;
    }
    return Start(azurite->config, azurite->warnings);
  }
  // `malachite export|import|backup|restore ...`: the data tools, not the server.
  if (count > 1 && cli::IsCliCommand(args[1])) return cli::RunCli(count, args, env);
  auto config = ParseArgs(count, args, env);
  if (!config) {
    std::fprintf(stderr, "malachite: %s\n", config.error().message.c_str());
    return 2;
  }
  return Start(*config, {});
}
