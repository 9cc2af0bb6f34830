// The per-partition state of the throttle: one GCRA bucket, a recent-rate window and the
// rebalancing emulation's clocks per (account, table, PartitionKey). Sharded (64 shards, each a
// small mutex and a hash map) so concurrent requests on different partitions rarely meet, and
// bounded: a full shard forgets its idle partitions first, then the least recently seen; a
// deleted account's or table's partitions are forgotten at once (ForgetAccount, ForgetTable).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/string_hash.h"
#include "server/traffic/rate_limiter.h"

namespace malachite::server {

struct PartitionState {
  Gcra bucket;
  RateWindow window;            // entities counted, admitted or charged
  std::uint64_t throttled = 0;  // requests refused (rate or offline)
  std::int64_t last_seen = 0;   // limiter time units (RateLimit::Units)
  // Rebalancing emulation: since when the partition has been refused without a long pause, the
  // last refusal, and until when it is offline (0: never).
  std::int64_t hot_since = 0;
  std::int64_t last_refused = 0;
  std::int64_t offline_until = 0;
};

// The three parts of a partition's identity; views into the table's key (see ForEach).
struct PartitionName {
  std::string_view account;
  std::string_view table;  // lowercase: table names are case-insensitive (spec §9.1)
  std::string_view partition_key;
};

class PartitionTable {
 public:
  static constexpr std::size_t kShards = 64;

  // Keeps at most about `capacity` partitions (at least one per shard).
  explicit PartitionTable(std::size_t capacity);

  // Runs `fn(state)` under the partition's shard lock, creating the state when new (which may
  // first evict others of the shard: see the file comment; `now` decides which are idle).
  // Returns what `fn` returns. `fn` must not call back into the table.
  template <typename Fn>
  auto With(const PartitionName& name, std::int64_t now, Fn&& fn) {
    std::string& key = KeyBuffer();
    BuildKey(name, key);
    const std::size_t hash = std::hash<std::string_view>{}(key);
    Shard& shard = shards_[hash % kShards];
    std::lock_guard<std::mutex> lock(shard.mutex);
    PartitionState& state = Find(shard, key, now);
    state.last_seen = now;
    return fn(state);
  }

  // Forgets every partition of `account` (a deleted account: its partitions would otherwise be
  // kept until evicted, and walked by every ForEach). Thread-safe: takes each shard's lock in
  // turn, O(partitions).
  void ForgetAccount(std::string_view account);
  // Forgets every partition of `table` of `account` (a deleted table), the same way.
  void ForgetTable(std::string_view account, std::string_view table);

  // Calls `fn(name, state)` for every tracked partition, one shard locked at a time. The views in
  // `name` live for the call only.
  void ForEach(const std::function<void(const PartitionName&, const PartitionState&)>& fn) const;

  std::size_t size() const;

 private:
  using Map =
      std::unordered_map<std::string, PartitionState, TransparentStringHash, std::equal_to<>>;
  struct alignas(64) Shard {
    mutable std::mutex mutex;
    Map map;
  };

  // "account\0table-lowercase\0partition-key". Azure: spec §9.2 — keys hold no control
  // characters, and account and table names are alphanumeric, so the split is unambiguous (a
  // key that breaks the rule is refused by its handler anyway; at worst it reports oddly).
  static void BuildKey(const PartitionName& name, std::string& key);
  // A per-thread buffer, so that a lookup of a known partition allocates nothing.
  static std::string& KeyBuffer();
  PartitionState& Find(Shard& shard, const std::string& key, std::int64_t now);
  // Erases every partition whose key starts with `prefix`.
  void ForgetPrefix(std::string_view prefix);
  void Evict(Shard& shard, std::int64_t now);

  std::size_t shard_capacity_;
  std::array<Shard, kShards> shards_;
};

}  // namespace malachite::server
