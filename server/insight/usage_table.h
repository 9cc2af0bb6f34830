// The TableUsage of every (account, table) the server has answered requests for. Sharded (16
// shards, each a mutex and a hash map) so that requests on different tables rarely meet; a
// lookup of a known table allocates nothing. Bounded: once `capacity` tables are kept, further
// tables of an account share one entry named kOtherTables (hostile or generated names cannot
// grow it without end); a deleted account's entries are erased (ForgetAccount).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/string_hash.h"
#include "server/insight/table_usage.h"

namespace malachite::server {

class UsageTable {
 public:
  static constexpr std::size_t kShards = 16;
  static constexpr std::string_view kOtherTables = "(other tables)";

  explicit UsageTable(std::size_t capacity = 4096);

  // Runs `fn(usage)` under the shard lock of (account, table) — table names compare
  // case-insensitively (spec §9.1) — creating the entry when new. `fn` must not call back into
  // the table.
  template <typename Fn>
  void With(std::string_view account, std::string_view table, Fn&& fn) {
    std::unique_lock<std::mutex> lock;
    fn(Locate(account, table, lock));
  }

  // Copies of every entry (for the bill and the advisor), ordered by account and table.
  std::vector<TableUsage> Snapshot() const;

  // Zeroes every entry's bill / forgets every entry's observations.
  void ResetBill();
  void ResetObservations();

  // Erases every entry of `account` (its tables and its kOtherTables entry), freeing their
  // memory; a later With for the account starts a new entry. Thread-safe: takes each shard's
  // lock in turn, O(entries).
  void ForgetAccount(std::string_view account);

  std::size_t size() const;

 private:
  using Map = std::unordered_map<std::string, TableUsage, TransparentStringHash, std::equal_to<>>;
  struct alignas(64) Shard {
    mutable std::mutex mutex;
    Map map;
    // Moved by every erase from `map` (under `mutex`): a cached entry found at the same count
    // is still there.
    std::uint64_t erasures = 0;
  };

  // The entry of (account, table), with its shard's lock taken into `lock`. A per-thread cache
  // of the last entry found skips building and hashing the key when a thread sees the same
  // table again, used only while its shard's `erasures` has not moved.
  TableUsage& Locate(std::string_view account, std::string_view table,
                     std::unique_lock<std::mutex>& lock);
  // "account\0table-lowercase" into a per-thread buffer.
  static const std::string& Key(std::string_view account, std::string_view table);
  // The entry of `key` in `shard` (created when the table is not full), or null; Create makes
  // it whatever the size. REQUIRES: the shard's lock.
  TableUsage* Find(Shard& shard, const std::string& key, std::string_view account,
                   std::string_view table);
  TableUsage* Create(Shard& shard, const std::string& key, std::string_view account,
                     std::string_view table);

  // Tells this table's entries from another (destroyed) table's in the per-thread cache.
  const std::uint64_t id_;
  std::size_t capacity_;
  std::atomic<std::size_t> size_{0};
  std::array<Shard, kShards> shards_;
};

}  // namespace malachite::server
