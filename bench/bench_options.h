// malachite_bench's command line.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "bench/bench_client.h"

namespace malachite::bench {

struct Options {
  Target target;
  std::string key;  // base64 account key (default: the well-known emulator key)
  // Entities the reads, upserts and queries address: loaded into --table by $batch (rounded up
  // to a multiple of kSeedBlock) unless --no-load says the table holds them already.
  std::size_t seed = 102400;
  bool no_load = false;
  std::size_t ops = 20000;     // most requests per row
  std::size_t list_ops = 300;  // most pages per list/scan row
  double seconds = 10;         // most seconds per row
  std::vector<int> connections{1, 32};
  std::vector<Scenario> scenarios{Scenario::kInsert,    Scenario::kUpsert, Scenario::kDelete,
                                  Scenario::kPointRead, Scenario::kBatch,  Scenario::kScan,
                                  Scenario::kQueryRange};
  int server_pid = 0;
  // The fixed-response reference server (bench_reference_server): every row runs against it
  // too, right after Malachite, and the ratios are printed.
  unsigned short reference_port = 0;
  // The reference's processes whose CPU time is summed (nginx: its workers).
  std::vector<int> reference_pids;
  std::string scan_table;  // the table `scan` reads (default: --table)
  std::string scan_filter = "Qty eq -1";
};

// Parses argv; prints the usage and exits on --help (0) or a malformed flag (2).
Options ParseOptions(int argc, char** argv);

}  // namespace malachite::bench
