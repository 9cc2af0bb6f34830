#include "bench/bench_options.h"

#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <string_view>

namespace malachite::bench {
namespace {

constexpr std::string_view kDevKey =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

constexpr std::string_view kUsage =
    "Usage: malachite_bench [--host 127.0.0.1] [--port 10002] [--account devstoreaccount1]\n"
    "         [--key <base64>] [--table benchtable] [--seed 102400] [--no-load 1]\n"
    "         [--ops 20000] [--list-ops 300] [--seconds 10] [--connections 1,32]\n"
    "         [--scenarios insert,upsert,delete,read,batch,scan,query-range]\n"
    "         [--server-pid <pid>] [--reference-port <port> --reference-pid <pid>[,<pid>...]]\n"
    "         [--scan-table <table>] [--scan-filter 'Qty eq -1']\n"
    "Loads --seed entities into --table by $batch of 100 (32 connections), then runs each\n"
    "scenario at each connection count until --ops requests (--list-ops pages for list and\n"
    "scan) or --seconds have passed. Scenarios: insert, upsert, merge, delete (of what insert\n"
    "wrote at the same connection count: list insert first), read, batch ($batch of 100\n"
    "inserts), list, query-point, query-range (100 RowKeys of one partition), scan (non-key\n"
    "--scan-filter over --scan-table; scanned counts need the server's --explain), none (load\n"
    "only).\n"
    "With --reference-port every row also runs against the reference (bench_reference_server or\n"
    "nginx, a fixed 200; its CPU is the sum over --reference-pid's processes) and prints the\n"
    "ratios. Only loopback targets make sense: this is a load generator.\n";

std::vector<std::string> SplitComma(std::string_view text) {
  std::vector<std::string> parts;
  std::stringstream stream{std::string(text)};
  for (std::string part; std::getline(stream, part, ',');) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::optional<Scenario> ParseScenario(std::string_view name) {
  constexpr std::pair<std::string_view, Scenario> kNames[] = {
      {"read", Scenario::kPointRead},
      {"upsert", Scenario::kUpsert},
      {"merge", Scenario::kMerge},
      {"list", Scenario::kList},
      {"insert", Scenario::kInsert},
      {"delete", Scenario::kDelete},
      {"batch", Scenario::kBatch},
      {"query-point", Scenario::kQueryPoint},
      {"query-range", Scenario::kQueryRange},
      {"scan", Scenario::kScan}};
  for (const auto& [text, scenario] : kNames) {
    if (text == name) return scenario;
  }
  return std::nullopt;
}

[[noreturn]] void Fail(std::string_view why) {
  std::cerr << "malachite_bench: " << why << "\n" << kUsage;
  std::exit(2);
}

void Apply(Options& options, std::string_view flag, const std::string& value) {
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
  else if (flag == "--no-load")
    options.no_load = value != "0";
  else if (flag == "--ops")
    options.ops = std::stoul(value);
  else if (flag == "--list-ops")
    options.list_ops = std::stoul(value);
  else if (flag == "--seconds")
    options.seconds = std::stod(value);
  else if (flag == "--server-pid")
    options.server_pid = std::stoi(value);
  else if (flag == "--reference-port")
    options.reference_port = static_cast<unsigned short>(std::stoul(value));
  else if (flag == "--reference-pid") {
    options.reference_pids.clear();
    for (const auto& part : SplitComma(value)) options.reference_pids.push_back(std::stoi(part));
  } else if (flag == "--scan-table")
    options.scan_table = value;
  else if (flag == "--scan-filter")
    options.scan_filter = value;
  else if (flag == "--connections") {
    options.connections.clear();
    for (const auto& part : SplitComma(value)) options.connections.push_back(std::stoi(part));
  } else if (flag == "--scenarios") {
    options.scenarios.clear();
    for (const auto& part : SplitComma(value)) {
      if (part == "none") continue;
      auto scenario = ParseScenario(part);
      if (!scenario) Fail("unknown scenario '" + part + "' (see --help)");
      options.scenarios.push_back(*scenario);
    }
  } else {
    Fail("unknown option " + std::string(flag));
  }
}

}  // namespace

Options ParseOptions(int argc, char** argv) {
  Options options;
  options.key = std::string(kDevKey);
  for (int i = 1; i < argc; ++i) {
    std::string_view flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::cout << kUsage;
      std::exit(0);
    }
    if (i + 1 >= argc) Fail("missing value for " + std::string(flag));
    std::string value = argv[++i];
    try {
      Apply(options, flag, value);
    } catch (const std::exception&) {
      Fail("bad value '" + value + "' for " + std::string(flag));
    }
  }
  options.seed = (options.seed + kSeedBlock - 1) / kSeedBlock * kSeedBlock;
  if (options.seed == 0) Fail("--seed must be at least 1");
  bool inserted = false;
  for (Scenario scenario : options.scenarios) {
    if (scenario == Scenario::kInsert) inserted = true;
    if (scenario == Scenario::kDelete && !inserted) Fail("delete needs insert listed before it");
  }
  if (options.scan_table.empty()) options.scan_table = options.target.table;
  return options;
}

}  // namespace malachite::bench
