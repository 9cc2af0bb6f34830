// ServerConfig: everything the `malachite` binary can be told at startup, with its defaults, and
// the parsing of command-line flags and environment variables into it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/durability.h"
#include "common/error.h"
#include "config/oauth_config.h"
#include "config/throttle_config.h"

namespace malachite {

// The project() version of the top-level CMakeLists.txt (scripts/package names artefacts by it).
extern const std::string_view kMalachiteVersion;

// Azure: spec §10.1 — the well-known development storage account and its key.
inline constexpr std::string_view kDevAccountName = "devstoreaccount1";
inline constexpr std::string_view kDevAccountKey =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

// One storage account: its name and one or two base64 keys (a request signed with either key
// authenticates, spec §10.1).
struct AccountConfig {
  std::string name;
  std::string key1;  // base64, as it appears in connection strings
  std::string key2;  // base64 or empty
};

struct ServerConfig {
  // --host: the address to listen on. Default 127.0.0.1.
  std::string host = "127.0.0.1";
  // --port: the TCP port. Default 10002 (the well-known emulator table port). 0 picks a free
  // port and prints it on stdout ("malachite: listening on <host>:<port>").
  std::uint16_t port = 10002;
  // --data-dir: where the LMDB environment lives (created if missing). Default ./data.
  std::string data_dir = "./data";
  // --log-level: trace, debug, info, warn, error, critical or off. Default info.
  std::string log_level = "info";
  // --threads: I/O threads running the io_context. Default: hardware cores (at least 1).
  unsigned threads = 0;  // 0 before ParseArgs fills it in
  // Accounts: devstoreaccount1 with the well-known key, then every account of
  // MALACHITE_ACCOUNTS="name1:key1[:key2];name2:key2" (a later entry with the same name replaces
  // an earlier one, so the dev key can be rotated too).
  std::vector<AccountConfig> accounts;
  // --request-timeout: seconds a connection may take to send one request (and idle between
  // requests) before it is closed. Default 60.
  unsigned request_timeout_seconds = 60;
  // --durability: what an acknowledged write survives (common/durability.h). "process" (the
  // default): kill -9 and crashes of the process; a host crash loses at most the last
  // --sync-interval-ms. "full": a host crash too (the acknowledgement waits for the fsync).
  // --no-sync is an alias of "process". --in-memory sets kNone.
  Durability durability = Durability::kProcess;
  // --sync-interval-ms: how often the background flush fsyncs what was committed since the last
  // one (both modes). Default 1000.
  unsigned sync_interval_ms = 1000;
  // --map-size-mb: the most the LMDB map grows to, in MiB: address space, not disk, on POSIX,
  // where the store maps it all at once; on Windows the map starts at 64 MiB and grows with the
  // data (storage/FORMAT.md, "The map grows as needed"). Default 1 TiB.
  std::uint64_t map_size_mb = 1024 * 1024;
  // --compaction: auto (true) compacts data.mdb when it pays, at start and while serving
  // (storage/FORMAT.md, "Getting disk space back"); off leaves it to `malachite compact`.
  // Default auto.
  bool compaction = true;
  // --space-reserve-mb: the space reserve a full data disk gives back so deletes still commit
  // (storage/FORMAT.md, "Full disks"). 0: no reserve and no space alarm. Default 2.
  std::uint64_t space_reserve_mb = 2;
  // --explain, or MALACHITE_EXPLAIN=1: Query Entities/Query Tables responses carry
  // x-malachite-query-plan (the scan plan, the service's query class, entities scanned and
  // returned). Default off.
  bool explain = false;
  // --query-budget-ms: wall time one query page may scan before it returns what it has plus a
  // continuation (spec §6.5). Default 5000.
  unsigned query_budget_ms = 5000;
  // Throttling, fault injection and rebalancing (throttle_config.h): --throttling,
  // --partition-rate, --account-rate, --fault, ... and their MALACHITE_* variables. Default:
  // throttling on at the service's targets (2,000 entities/s per partition, 20,000 per account),
  // no faults.
  ThrottleConfig throttle;
  // --in-memory: keep the data in a fresh temp dir under /dev/shm (else $TMPDIR, else /tmp) that
  // is removed at startup once the store has it open (so nothing is left behind, even after
  // kill -9); data_dir is then ignored. Implies durability kNone (nothing to sync). Default off.
  bool in_memory = false;
  // --loose: accept requests without (valid) authentication and with any or no x-ms-version
  // (like Azurite's --loose/--skipApiVersionCheck), and opens the admin endpoints to every
  // client (as --admin-open). Default off.
  bool loose = false;
  // --transient-accounts: the accounts made at run time (POST /-/accounts) are deleted, with
  // their tables, when the server stops (and at startup, should a killed server have left any).
  // Default off: they are stored in the data dir and served again after a restart.
  bool transient_accounts = false;
  // --exit-with-stdin: stop gracefully (as on SIGTERM) when standard input reaches end of file
  // or fails. The test packages start the server with stdin a pipe only they hold, so it stops
  // when they die, however they die (server/net/stdin_lifeline.h). Default off.
  bool exit_with_stdin = false;
  // --admin-open: every client may use the admin endpoints (/-/metrics, /-/partitions,
  // /-/faults, ...); by default only loopback clients and requests with an account's
  // credentials may (the health probes /-/healthy and /-/ready are always open). --loose implies
  // it. Default off.
  bool admin_open = false;
  // --body-memory-mb: MiB that request bodies being received and processed may hold at once,
  // all connections together; a request whose body does not fit waits up to a second for room,
  // then gets 503 ServerBusy (a chunked body: at the chunk that does not fit). 0: no limit.
  // Bodies over 64 KiB may hold seven eighths of it together; the rest is kept for small bodies
  // (server/net/body_budget.h). Default 256 (55 large bodies of the 4 MiB maximum and its $batch
  // slack, and 32 MiB for small ones).
  std::uint64_t body_memory_mb = 256;
  // --host-style on|off: a Host whose first label is a known account (<account>.localhost,
  // <account>.table.<anything>; "-secondary" for the secondary) addresses that account, and the
  // path is the resource (spec §1.1). IP addresses and other names stay path-style. Default on.
  bool host_style = true;
  // Microsoft Entra ID bearer tokens (oauth_config.h): --oauth and its options. Default off.
  OAuthConfig oauth;
  // --log-format: "text" (human) or "json" (one JSON object per line, for log collectors).
  std::string log_format = "text";
  // --access-log-level: the level of the one-line-per-request access log (trace..critical, off).
  // Default debug: invisible under the default --log-level info, so benchmarks pay nothing.
  std::string access_log_level = "debug";
  // --cert/--key: PEM certificate (chain) and private key; when set the port speaks HTTPS only.
  // --cert-password instead of --key: --cert is a PKCS#12 (.pfx) file holding the key, encrypted
  // with that password. Default: plain HTTP.
  std::string cert_file;
  std::string key_file;
  std::string cert_password;
  // --skip-api-version-check: serve any x-ms-version (malformed, unknown or missing) at the
  // default version, with authentication still checked (--loose skips both). Default off.
  bool skip_api_version_check = false;
  // --debug-log FILE: also append every log line at debug level (the access log included) to
  // FILE, whatever --log-level says for stderr. Default: none.
  std::string debug_log_file;
  // Set when run as `azurite-table` (config/azurite_args.h): Azurite's start, ready and close
  // lines are printed on stdout beside Malachite's own.
  bool azurite_lines = false;
  // --seed: a folder of fixtures (<table>.jsonl or <table>.csv files, <account>/ subfolders for
  // other accounts than devstoreaccount1) loaded into their tables on the first start of an empty
  // data dir, and restored by POST /-/reset. Default: none.
  std::string seed_dir;
  // --config / MALACHITE_CONFIG: the config file that was read ("" when none).
  std::string config_file;
  // --probe URL: do not serve; GET the URL (http or https, certificate not verified) and exit 0
  // on 200, 1 otherwise. For container health checks without curl. A URL that is a path
  // ("/-/ready") names this configuration's own address (its port, https with --cert).
  std::string probe_url;
  // --help was given: the caller prints HelpText() and exits 0.
  bool help = false;
  // --version was given: the caller prints the version and exits 0.
  bool version = false;
  // --man (hidden) was given: the caller prints ManPage() and exits 0 (used by the build).
  bool man = false;
};

// Parses `argv` (flags `--name value` or `--name=value`; switches bare or `--name=0|1`), the
// environment `envp` (a null-terminated "NAME=value" array as main() receives it; may be null;
// MALACHITE_<NAME> for every option) and the config file named by --config or MALACHITE_CONFIG
// ('name = value' lines, '#' comments, optional double quotes around the value) into a config
// whose unspecified fields keep their defaults. Precedence: flags > environment > file >
// defaults; accounts from every source are merged by name. Fails with kInvalidInput and a
// one-line message naming the offending flag, variable or "<file>:<line>:" (unknown option,
// missing or malformed value, bad account entry or key that is not base64, unreadable file,
// --cert without --key).
Result<ServerConfig> ParseArgs(int argc, const char* const* argv, const char* const* envp);

// Applies option `name` (as after "--": "port", "partition-rate") with `value` to `config`, as a
// flag, variable or config-file line would; `flag` names it in error messages (e.g. another
// command line's spelling of the same option: "--tablePort"). Fails with kInvalidInput: unknown
// option, malformed or out-of-range value.
Result<void> ApplyOption(ServerConfig& config, std::string_view name, std::string_view value,
                         std::string_view flag);

// Parses "name1:key1[:key2];name2:key2" (MALACHITE_ACCOUNTS, AZURITE_ACCOUNTS) into `accounts`: an
// entry with a name already there replaces it. Fails with kInvalidInput naming `source` (the
// flag or variable) and the entry: not name:key, or a key that is not base64.
Result<void> ParseAccounts(std::vector<AccountConfig>& accounts, std::string_view source,
                           std::string_view text);

// The checks ParseArgs makes once every source is applied (also for configs built otherwise, as
// azurite_args.h does): --cert with --key or --cert-password, --oauth with a certificate. Sets
// durability kNone for --in-memory.
Result<void> CheckConfig(ServerConfig& config);

// The --help text: every option with its default and environment variable, then the throttling
// options (throttle_config.h).
std::string HelpText();

// One option as --help and the man page describe it.
struct OptionHelp {
  std::string flag;          // "--port"
  std::string value_name;    // "<n>"; empty for a switch
  std::string default_text;  // "10002"; may be empty
  std::string help;          // lines separated by '\n'
  std::string env;           // "MALACHITE_PORT"; empty for command-line-only options
};
std::vector<OptionHelp> OptionHelps();

// `options` as --help lists them: "  --flag <value>" padded to a column, the help lines, then
// "(default ...; env ...)". Also the format of the subcommands' help (malachite export --help).
std::string FormatOptionHelps(const std::vector<OptionHelp>& options);

}  // namespace malachite
