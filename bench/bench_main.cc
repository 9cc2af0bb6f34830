// malachite_bench: a bounded load generator for a running Malachite (or any Azure Table endpoint
// on loopback). Loads a table by $batch, then runs insert, upsert, delete, point read, $batch of
// 100, a non-key scan and 100-entity range queries at each requested concurrency, printing ops/s,
// p50/p99 latency, (with --server-pid) the server's CPU time per operation and per entity, and
// (with --reference-port) the same rows against a fixed-response server with the ratios.
#include <unistd.h>

#include <cstdio>
#include <map>
#include <optional>
#include <string>

#include "bench/bench_client.h"
#include "bench/bench_options.h"
#include "bench/bench_stats.h"
#include "bench/shared_key_lite.h"

namespace malachite::bench {
namespace {

// One scenario run and the server's CPU time around it.
struct Measured {
  RunResult result;
  std::optional<double> cpu_seconds;
};

// The CPU seconds `pids` used so far, summed; nullopt when there are none or one is unreadable.
std::optional<double> CpuSeconds(const std::vector<int>& pids) {
  if (pids.empty()) return std::nullopt;
  double sum = 0;
  for (int pid : pids) {
    const std::optional<double> seconds = pid > 0 ? ProcessCpuSeconds(pid) : std::nullopt;
    if (!seconds) return std::nullopt;
    sum += *seconds;
  }
  return sum;
}

Measured Measure(const Target& target, const SharedKeyLiteSigner& signer, const RunOptions& options,
                 const std::vector<int>& pids) {
  const std::optional<double> before = CpuSeconds(pids);
  Measured measured{RunScenario(target, signer, options), std::nullopt};
  if (before) {
    if (auto after = CpuSeconds(pids)) measured.cpu_seconds = *after - *before;
  }
  return measured;
}

// "12.3 us" of CPU per op, or "-".
std::string CpuPerOp(const Measured& m) {
  if (!m.cpu_seconds || m.result.ops == 0) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f us", *m.cpu_seconds * 1e6 / m.result.ops);
  return buffer;
}

// Entities (scanned ones for a scan) per server CPU-second, or "-".
std::string PerCpuSecond(Scenario scenario, const Measured& m) {
  const std::size_t items = scenario == Scenario::kScan ? m.result.scanned : m.result.entities;
  if (!m.cpu_seconds || *m.cpu_seconds <= 0 || items == 0) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2fM", items / *m.cpu_seconds / 1e6);
  return buffer;
}

double PerSecond(std::size_t n, const RunResult& r) { return n / (r.seconds > 0 ? r.seconds : 1); }

void PrintHeader(bool reference) {
  std::printf("%-11s %5s %9s %10s %8s %8s %10s %9s", "row", "conns", "ops/s", "items/s", "p50 ms",
              "p99 ms", "CPU/op", "items/CPUs");
  if (reference) {
    std::printf(" | %9s %8s %8s %10s | %8s %8s", "ref ops/s", "ref p50", "ref p99", "ref CPU/op",
                "x ops/s", "x CPU/op");
  }
  std::printf("\n");
}

void PrintRow(Scenario scenario, int connections, Measured& m, Measured* ref) {
  RunResult& r = m.result;
  const std::size_t items = scenario == Scenario::kScan ? r.scanned : r.entities;
  std::printf(
      "%-11s %5d %9.0f %10.0f %8.3f %8.3f %10s %9s", std::string(ScenarioName(scenario)).c_str(),
      connections, PerSecond(r.ops, r), PerSecond(items, r), r.latencies.Percentile(50) / 1e3,
      r.latencies.Percentile(99) / 1e3, CpuPerOp(m).c_str(), PerCpuSecond(scenario, m).c_str());
  if (ref) {
    RunResult& q = ref->result;
    const double ops_ratio = PerSecond(r.ops, r) / std::max(1.0, PerSecond(q.ops, q));
    std::string cpu_ratio = "-";
    if (m.cpu_seconds && ref->cpu_seconds && r.ops && q.ops && *ref->cpu_seconds > 0) {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.2f",
                    (*m.cpu_seconds / r.ops) / (*ref->cpu_seconds / q.ops));
      cpu_ratio = buffer;
    }
    std::printf(" | %9.0f %8.3f %8.3f %10s | %8.2f %8s", PerSecond(q.ops, q),
                q.latencies.Percentile(50) / 1e3, q.latencies.Percentile(99) / 1e3,
                CpuPerOp(*ref).c_str(), ops_ratio, cpu_ratio.c_str());
  }
  std::printf("\n");
  if (!r.first_error.empty()) std::printf("    first error: %s\n", r.first_error.c_str());
  if (ref && !ref->result.first_error.empty())
    std::printf("    reference first error: %s\n", ref->result.first_error.c_str());
  std::fflush(stdout);
}

// Loads the seeded entities [0, seed) into `target` by batches of 100 from 32 connections.
bool Load(const Options& options, const SharedKeyLiteSigner& signer) {
  RunOptions load;
  load.scenario = Scenario::kBatch;
  load.connections = 32;
  load.max_ops = options.seed / kBatchSize;
  load.max_seconds = 24 * 3600;
  load.insert_prefix = "seed";
  Measured m = Measure(options.target, signer, load, {options.server_pid});
  const RunResult& r = m.result;
  std::printf("loaded %zu entities by $batch of 100 in %.1f s: %.0f entities/s", r.entities,
              r.seconds, PerSecond(r.entities, r));
  if (m.cpu_seconds)
    std::printf(", %.2f us server CPU per entity", *m.cpu_seconds * 1e6 / r.entities);
  std::printf(" (%zu errors%s%s)\n\n", r.errors, r.first_error.empty() ? "" : ": ",
              r.first_error.c_str());
  std::fflush(stdout);
  return r.errors == 0;
}

int Main(int argc, char** argv) {
  Options options = ParseOptions(argc, argv);
  SharedKeyLiteSigner signer(options.target.account, options.key);
  Target batch_target = options.target;
  batch_target.table = options.target.table + "batch";
  for (const Target& target : {options.target, batch_target}) {
    if (std::string error = EnsureTable(target, signer); !error.empty()) {
      std::fprintf(stderr, "malachite_bench: %s\n", error.c_str());
      return 1;
    }
  }
  if (!options.no_load && !Load(options, signer)) return 1;
  if (options.scenarios.empty()) return 0;

  const bool with_reference = options.reference_port != 0;
  PrintHeader(with_reference);
  bool all_ok = true;
  int run = 0;
  // Fresh keys per process too: several runs may share one server (bench/profile_request).
  const std::string tag = "x" + std::to_string(::getpid()) + "x";
  std::map<int, std::pair<std::string, std::size_t>> inserted;  // connections -> prefix, ops
  for (Scenario scenario : options.scenarios) {
    for (int connections : options.connections) {
      const bool paged = scenario == Scenario::kList || scenario == Scenario::kScan;
      RunOptions run_options{
          scenario,           connections,  paged ? options.list_ops : options.ops,
          options.seconds,    options.seed, "ins" + std::to_string(run++) + tag,
          options.scan_filter};
      Target target = options.target;
      if (scenario == Scenario::kScan) target.table = options.scan_table;
      if (scenario == Scenario::kBatch) target = batch_target;
      if (scenario == Scenario::kDelete) {
        std::tie(run_options.insert_prefix, run_options.max_ops) = inserted[connections];
      }
      Measured m = Measure(target, signer, run_options, {options.server_pid});
      if (scenario == Scenario::kInsert) {
        inserted[connections] = {run_options.insert_prefix, m.result.ops + m.result.errors};
      }
      std::optional<Measured> ref;
      if (with_reference) {
        Target reference = target;
        reference.port = options.reference_port;
        run_options.reference = true;
        ref = Measure(reference, signer, run_options, options.reference_pids);
      }
      PrintRow(scenario, connections, m, ref ? &*ref : nullptr);
      all_ok = all_ok && m.result.errors == 0;
    }
  }
  std::printf(
      "\nitems: entities written or read (scan: entities the server scanned, from its --explain\n"
      "header). CPU/op, items/CPUs: server CPU time (/proc/<pid>/stat) per request and entities\n"
      "per CPU-second. ref: the reference, a fixed 200 (bench_reference_server on Malachite's\n"
      "HTTP stack, or nginx: scripts/bench --reference nginx); x ops/s = Malachite's ops/s / the\n"
      "reference's, x CPU/op = Malachite's CPU per op / the reference's.\n");
  return all_ok ? 0 : 1;
}

}  // namespace
}  // namespace malachite::bench

int main(int argc, char** argv) { return malachite::bench::Main(argc, argv); }
