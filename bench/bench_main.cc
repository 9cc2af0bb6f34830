// malachite_bench: a bounded load generator for a running Malachite (or any Azure Table endpoint
// on loopback). Seeds a table, then runs point read, upsert, full listing, insert and the $filter
// query classes (point, 100-row range, non-key scan of a big table) at each requested
// concurrency, printing ops/s, p50/p99 latency, (with --server-pid) the server's CPU time per
// operation and (with the server's --explain header) entities scanned per second.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "bench/bench_client.h"
#include "bench/bench_stats.h"
#include "bench/shared_key_lite.h"

namespace malachite::bench {
namespace {

constexpr std::string_view kDevKey =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

struct Options {
  Target target;
  std::string key{kDevKey};
  std::size_t seed = 10000;
  std::size_t ops = 20000;
  std::size_t list_ops = 300;
  double seconds = 10;
  std::vector<int> connections{1, 32};
  std::vector<Scenario> scenarios{Scenario::kPointRead, Scenario::kUpsert, Scenario::kList,
                                  Scenario::kInsert};
  int server_pid = 0;
  std::string scan_table;  // the table `scan` reads (default: --table)
  std::string scan_filter = "Qty eq -1";
};

constexpr std::string_view kUsage =
    "Usage: malachite_bench [--host 127.0.0.1] [--port 10002] [--account devstoreaccount1]\n"
    "         [--key <base64>] [--table benchtable] [--seed 10000] [--ops 20000] [--list-ops 300]\n"
    "         [--seconds 10] [--connections 1,32] [--scenarios read,upsert,list,insert]\n"
    "         [--server-pid <pid>] [--scan-table <table>] [--scan-filter 'Qty eq -1']\n"
    "Scenarios: read, upsert, list, insert, query-point ($filter PartitionKey eq and RowKey eq),\n"
    "query-range ($filter over 100 RowKeys of one partition; needs --seed >= 1600), scan (a\n"
    "non-key --scan-filter over --scan-table, e.g. one loaded by batch_loader; one op = one page;\n"
    "scanned/s needs the server's --explain header).\n"
    "Each scenario runs at each connection count until --ops requests (--list-ops pages for list\n"
    "and scan) or --seconds have passed. Only loopback targets make sense: this is a load "
    "generator.\n";

std::vector<std::string> SplitComma(std::string_view text) {
  std::vector<std::string> parts;
  std::stringstream stream{std::string(text)};
  for (std::string part; std::getline(stream, part, ',');) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::optional<Scenario> ParseScenario(std::string_view name) {
  if (name == "read") return Scenario::kPointRead;
  if (name == "upsert") return Scenario::kUpsert;
  if (name == "list") return Scenario::kList;
  if (name == "insert") return Scenario::kInsert;
  if (name == "query-point") return Scenario::kQueryPoint;
  if (name == "query-range") return Scenario::kQueryRange;
  if (name == "scan") return Scenario::kScan;
  return std::nullopt;
}

// Parses argv; exits with the usage text on --help or a malformed flag.
Options ParseOptions(int argc, char** argv) {
  Options options;
  auto fail = [](std::string_view why) {
    std::cerr << "malachite_bench: " << why << "\n" << kUsage;
    std::exit(2);
  };
  for (int i = 1; i < argc; ++i) {
    std::string_view flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::cout << kUsage;
      std::exit(0);
    }
    if (i + 1 >= argc) fail("missing value for " + std::string(flag));
    std::string value = argv[++i];
    try {
      if (flag == "--host")
        options.target.host = value;
      else if (flag == "--port")
        options.target.port = static_cast<unsigned short>(std::stoul(value));
      else if (flag == "--account")
        options.target.account = value;
      else if (flag == "--key")
        options.key = value;
      else if (flag == "--table")
        options.target.table = value;
      else if (flag == "--seed")
        options.seed = std::stoul(value);
      else if (flag == "--ops")
        options.ops = std::stoul(value);
      else if (flag == "--list-ops")
        options.list_ops = std::stoul(value);
      else if (flag == "--seconds")
        options.seconds = std::stod(value);
      else if (flag == "--server-pid")
        options.server_pid = std::stoi(value);
      else if (flag == "--scan-table")
        options.scan_table = value;
      else if (flag == "--scan-filter")
        options.scan_filter = value;
      else if (flag == "--connections") {
        options.connections.clear();
        for (const auto& part : SplitComma(value)) options.connections.push_back(std::stoi(part));
      } else if (flag == "--scenarios") {
        options.scenarios.clear();
        for (const auto& part : SplitComma(value)) {
          auto scenario = ParseScenario(part);
          if (!scenario) fail("unknown scenario '" + part + "' (see --help)");
          options.scenarios.push_back(*scenario);
        }
      } else {
        fail("unknown option " + std::string(flag));
      }
    } catch (const std::exception&) {
      fail("bad value '" + value + "' for " + std::string(flag));
    }
  }
  if (options.seed == 0) fail("--seed must be at least 1");
  for (Scenario scenario : options.scenarios) {
    if (scenario == Scenario::kQueryRange && options.seed < kRangeRows * kSeedPartitions)
      fail("query-range needs --seed >= " + std::to_string(kRangeRows * kSeedPartitions));
  }
  if (options.scan_table.empty()) options.scan_table = options.target.table;
  return options;
}

void PrintHeader() {
  std::printf("%-11s %5s %8s %6s %10s %10s %9s %9s %14s %11s\n", "scenario", "conns", "ops",
              "errors", "ops/s", "items/s", "p50 ms", "p99 ms", "server CPU/op", "scanned/s");
}

void PrintRow(Scenario scenario, int connections, RunResult& result,
              std::optional<double> server_cpu_seconds) {
  double seconds = result.seconds > 0 ? result.seconds : 1;
  std::string cpu = "-";
  if (server_cpu_seconds && result.ops > 0) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f us", *server_cpu_seconds * 1e6 / result.ops);
    cpu = buffer;
  }
  std::string scanned = "-";
  if (result.scanned > 0)
    scanned = std::to_string(static_cast<long long>(result.scanned / seconds));
  std::printf("%-11s %5d %8zu %6zu %10.0f %10.0f %9.3f %9.3f %14s %11s\n",
              std::string(ScenarioName(scenario)).c_str(), connections, result.ops, result.errors,
              result.ops / seconds, result.entities / seconds,
              result.latencies.Percentile(50) / 1e3, result.latencies.Percentile(99) / 1e3,
              cpu.c_str(), scanned.c_str());
  if (!result.first_error.empty()) std::printf("    first error: %s\n", result.first_error.c_str());
  std::fflush(stdout);
}

// Every scenario but scan addresses the seeded entities of --table.
bool NeedsSeed(const Options& options) {
  for (Scenario scenario : options.scenarios) {
    if (scenario != Scenario::kScan) return true;
  }
  return false;
}

// One scenario at one connection count, with the server's CPU time around it.
bool RunAndPrint(const Options& options, const SharedKeyLiteSigner& signer, Scenario scenario,
                 int connections, int run) {
  const bool paged = scenario == Scenario::kList || scenario == Scenario::kScan;
  RunOptions run_options{scenario,           connections,  paged ? options.list_ops : options.ops,
                         options.seconds,    options.seed, "ins" + std::to_string(run) + "x",
                         options.scan_filter};
  Target target = options.target;
  if (scenario == Scenario::kScan) target.table = options.scan_table;
  std::optional<double> cpu_before;
  if (options.server_pid > 0) cpu_before = ProcessCpuSeconds(options.server_pid);
  RunResult result = RunScenario(target, signer, run_options);
  std::optional<double> cpu;
  if (cpu_before) {
    if (auto cpu_after = ProcessCpuSeconds(options.server_pid)) cpu = *cpu_after - *cpu_before;
  }
  PrintRow(scenario, connections, result, cpu);
  return result.errors == 0;
}

int Main(int argc, char** argv) {
  Options options = ParseOptions(argc, argv);
  SharedKeyLiteSigner signer(options.target.account, options.key);
  if (std::string error = EnsureTable(options.target, signer); !error.empty()) {
    std::cerr << "malachite_bench: " << error << "\n";
    return 1;
  }

  if (NeedsSeed(options)) {
    // Seed the entities that reads, upserts, listings and queries address (untimed).
    RunOptions seed{Scenario::kInsert, 32, options.seed, 600, options.seed, "seed"};
    RunResult seeded = RunScenario(options.target, signer, seed);
    std::printf("seeded %zu entities in %.1f s (%zu errors%s%s)\n\n", seeded.ops, seeded.seconds,
                seeded.errors, seeded.first_error.empty() ? "" : ": ", seeded.first_error.c_str());
    if (seeded.errors > 0 && seeded.ops == 0) return 1;
  }

  PrintHeader();
  bool all_ok = true;
  int run = 0;
  for (Scenario scenario : options.scenarios) {
    for (int connections : options.connections) {
      all_ok = RunAndPrint(options, signer, scenario, connections, run++) && all_ok;
    }
  }
  std::printf(
      "\nitems/s: entities per second (listing, queries, scan: entities received; point ops: =\n"
      "ops/s). scanned/s: entities the server scanned per second (x-malachite-query-plan).\n");
  return all_ok ? 0 : 1;
}

}  // namespace
}  // namespace malachite::bench

int main(int argc, char** argv) { return malachite::bench::Main(argc, argv); }
