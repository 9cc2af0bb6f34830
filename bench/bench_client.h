// The load tool's HTTP side: keep-alive connections driven by coroutines on one thread, each
// sending one scenario's requests back to back and timing them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "bench/bench_stats.h"
#include "bench/shared_key_lite.h"

namespace malachite::bench {

struct Target {
  std::string host = "127.0.0.1";
  unsigned short port = 10002;
  std::string account = "devstoreaccount1";
  std::string table = "benchtable";
};

enum class Scenario {
  kInsert,     // POST /<acct>/<t> with Prefer: return-no-content, fresh keys
  kPointRead,  // GET /<acct>/<t>(PartitionKey='..',RowKey='..') of a seeded entity
  kUpsert,     // PUT /<acct>/<t>(PartitionKey='..',RowKey='..') without If-Match (InsertOrReplace)
  kMerge,      // PATCH /<acct>/<t>(PartitionKey='..',RowKey='..') of a seeded entity with
               // If-Match: * (Merge Entity)
  kDelete,     // DELETE with If-Match: * of what a kInsert run with the same insert_prefix wrote
  kBatch,      // POST /<acct>/$batch: one changeset of kBatchSize inserts into one partition
               // (BatchKeys); one op = one batch, items = entities
  kList,       // GET /<acct>/<t>() following x-ms-continuation-* headers; one op = one page
  // The query classes, all through $filter on GET /<acct>/<t>():
  kQueryPoint,  // PartitionKey eq and RowKey eq of a seeded entity: exactly 1 entity
  kQueryRange,  // PartitionKey eq and RowKey ge/lt over 100 seeded rows: exactly 100 entities
  kScan,        // RunOptions::scan_filter (a non-key filter): a table scan; one op = one page,
                // continuations followed, then the scan starts over
};

std::string_view ScenarioName(Scenario scenario);

struct RunOptions {
  Scenario scenario = Scenario::kPointRead;
  int connections = 1;
  std::size_t max_ops = 10000;  // the run stops at whichever of max_ops / max_seconds comes first
  double max_seconds = 10;
  std::size_t key_space = 10000;      // reads and upserts address seeded keys [0, key_space)
  std::string insert_prefix = "ins";  // PartitionKey prefix of inserted entities (unique per run)
  std::string scan_filter = "Qty eq -1";  // kScan's $filter (decoded text)
  // The target is the fixed-response reference server (bench_reference_server): any 2xx counts,
  // bodies are not checked.
  bool reference = false;
};

struct RunResult {
  std::size_t ops = 0;       // requests answered with the expected status
  std::size_t errors = 0;    // transport errors and unexpected statuses
  std::size_t entities = 0;  // entities received (listing) or written/read (point ops)
  // Entities the server scanned, from x-malachite-query-plan (`scanned=N`, server --explain);
  // 0 when the header is absent.
  std::size_t scanned = 0;
  double seconds = 0;
  std::string first_error;
  LatencyRecorder latencies;  // of successful ops, microseconds
};

// Runs one scenario to completion. Never throws for server-side failures: they count as errors.
RunResult RunScenario(const Target& target, const SharedKeyLiteSigner& signer,
                      const RunOptions& options);

// Creates `target.table` (an existing table is fine). Returns an error text, empty on success.
std::string EnsureTable(const Target& target, const SharedKeyLiteSigner& signer);

// The seeded keys: entity i lives at PartitionKey SeedPartition(i), RowKey SeedRow(i); partition
// k holds the entities i = k mod kSeedPartitions.
inline constexpr std::size_t kSeedPartitions = 16;
// Entities a kQueryRange answer holds: key_space must reach kRangeRows * kSeedPartitions.
inline constexpr std::size_t kRangeRows = 100;
std::string SeedPartition(std::size_t i);
std::string SeedRow(std::size_t i);

// Inserts per kBatch op. Batch j of a run with insert_prefix P writes the entities i =
// j % 16 + 16 * (100 * (j / 16) + m), m < 100, at PartitionKey P<i % 16>, RowKey SeedRow(i): so
// kSeedBlock * n entities loaded by 16 * n batches with prefix "seed" are exactly the seeded
// entities [0, kSeedBlock * n) that reads and queries address.
inline constexpr std::size_t kBatchSize = 100;
inline constexpr std::size_t kSeedBlock = kBatchSize * kSeedPartitions;

}  // namespace malachite::bench
