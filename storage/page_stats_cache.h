// The page figures of /-/metrics as a running store serves them (storage/page_stats.h), read at
// most once a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>

#include "common/error.h"
#include "storage/lmdb_env.h"
#include "storage/page_stats.h"

namespace malachite::storage {

// ReadPageStats for a scrape of /-/metrics, which may come at any rate: read again only when a
// commit happened since the last read and at least `min_interval` after it, else the last
// figures. Thread-safe (one mutex, held while reading).
class PageStatsCache {
 public:
  explicit PageStatsCache(const LmdbEnv& env, std::chrono::steady_clock::duration min_interval =
                                                  std::chrono::seconds(1))
      : env_(env), min_interval_(min_interval) {}
  // The figures as last read; all zero when none could be read (the map is gone).
  PageStats Get();
  // The figures read now (not cached), and kept for Get: after a compaction, whose new file
  // starts its commits' numbering again. Errors: ReadPageStats's, or the map is gone.
  Result<PageStats> ReadNow();

 private:
  const LmdbEnv& env_;
  const std::chrono::steady_clock::duration min_interval_;
  std::mutex mu_;
  PageStats last_;
  std::uint64_t last_txnid_ = 0;  // the commit last_ was read at; 0: never read
  std::chrono::steady_clock::time_point read_at_{};
};

}  // namespace malachite::storage
