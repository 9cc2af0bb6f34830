// The TableUsage of every (account, table) the server has answered requests for. Sharded (16
// shards, each a mutex and a hash map) so that requests on different tables rarely meet; a
// lookup of a known table allocates nothing. Bounded: once `capacity` tables are kept, further
// tables of an account share one entry named kOtherTables (hostile or generated names cannot
// grow it without end).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "server/insight/table_usage.h"

namespace malachite::server {

class UsageTable {
 public:
  static constexpr std::size_t kShards = 16;
  static constexpr std::string_view kOtherTables = "(other tables)";

  explicit UsageTable(std::size_t capacity = 4096) : capacity_(capacity) {}

  // Runs `fn(usage)` under the shard lock of (account, table) — table names compare
  // case-insensitively (spec §3.1) — creating the entry when new. `fn` must not call back into
  // the table.
  template <typename Fn>
  void With(std::string_view account, std::string_view table, Fn&& fn) {
    {
      const std::string& key = Key(account, table);
      Shard& shard = shards_[KeyHash{}(key) % kShards];
      std::lock_guard<std::mutex> lock(shard.mutex);
      if (TableUsage* usage = Find(shard, key, account, table)) return fn(*usage);
    }
    // Full: the table shares its account's overflow entry (one lock at a time: no ordering).
    const std::string& other = Key(account, kOtherTables);
    Shard& shard = shards_[KeyHash{}(other) % kShards];
    std::lock_guard<std::mutex> lock(shard.mutex);
    fn(*Create(shard, other, account, kOtherTables));
  }

  // Copies of every entry (for the bill and the advisor), ordered by account and table.
  std::vector<TableUsage> Snapshot() const;

  // Zeroes every entry's bill / forgets every entry's observations.
  void ResetBill();
  void ResetObservations();

  std::size_t size() const;

 private:
  struct KeyHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view key) const {
      return std::hash<std::string_view>{}(key);
    }
  };
  using Map = std::unordered_map<std::string, TableUsage, KeyHash, std::equal_to<>>;
  struct alignas(64) Shard {
    mutable std::mutex mutex;
    Map map;
  };

  // "account\0table-lowercase" into a per-thread buffer.
  static const std::string& Key(std::string_view account, std::string_view table);
  // The entry of `key` in `shard` (created when the table is not full), or null; Create makes
  // it whatever the size. REQUIRES: the shard's lock.
  TableUsage* Find(Shard& shard, const std::string& key, std::string_view account,
                   std::string_view table);
  TableUsage* Create(Shard& shard, const std::string& key, std::string_view account,
                     std::string_view table);

  std::size_t capacity_;
  std::atomic<std::size_t> size_{0};
  std::array<Shard, kShards> shards_;
};

}  // namespace malachite::server
