#include "server/traffic/partition_table.h"

#include <algorithm>
#include <vector>

namespace malachite::server {

PartitionTable::PartitionTable(std::size_t capacity)
    : shard_capacity_(std::max<std::size_t>(capacity / kShards, 1)) {}

void PartitionTable::BuildKey(const PartitionName& name, std::string& key) {
  key.clear();
  key.append(name.account);
  key.push_back('\0');
  for (char c : name.table) key.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c);
  key.push_back('\0');
  key.append(name.partition_key);
}

std::string& PartitionTable::KeyBuffer() {
  thread_local std::string buffer;
  return buffer;
}

PartitionState& PartitionTable::Find(Shard& shard, const std::string& key, std::int64_t now) {
  if (auto it = shard.map.find(std::string_view(key)); it != shard.map.end()) return it->second;
  if (shard.map.size() >= shard_capacity_) Evict(shard, now);
  return shard.map.try_emplace(key).first->second;
}

// Forgets the idle partitions of a full shard: a full bucket, not offline and nothing counted in
// the last two seconds is exactly the state of a partition never seen. When fewer than an eighth
// were idle (a flood of partitions), more go, down to seven eighths: first those whose bucket is
// full (only their recent rate is lost), then the least recently seen, so that a partition in
// debt is the last to be forgotten. Evictions stay rare: O(1) amortized per insert.
void PartitionTable::Evict(Shard& shard, std::int64_t now) {
  const std::int64_t two_seconds = 2 * RateLimit::kUnitsPerSecond;
  auto idle = [now](const PartitionState& state) {
    return state.bucket.Idle(now) && state.offline_until <= now;
  };
  std::erase_if(shard.map, [&](const auto& entry) {
    return idle(entry.second) && now - entry.second.last_seen > two_seconds;
  });
  const std::size_t target = shard_capacity_ - shard_capacity_ / 8;
  if (shard.map.size() <= target || shard.map.size() < 2) return;
  // Rank: idle ones first, then by last use.
  using Rank = std::pair<bool, std::int64_t>;
  std::vector<Rank> ranks;
  ranks.reserve(shard.map.size());
  for (const auto& entry : shard.map)
    ranks.emplace_back(!idle(entry.second), entry.second.last_seen);
  const std::size_t drop = shard.map.size() - target;
  std::nth_element(ranks.begin(), ranks.begin() + static_cast<std::ptrdiff_t>(drop - 1),
                   ranks.end());
  const Rank cutoff = ranks[drop - 1];
  std::size_t dropped = 0;
  std::erase_if(shard.map, [&](const auto& entry) {
    if (dropped >= drop || Rank(!idle(entry.second), entry.second.last_seen) > cutoff) return false;
    ++dropped;
    return true;
  });
}

void PartitionTable::ForgetAccount(std::string_view account) {
  // The key starts with "account\0" (BuildKey): the NUL keeps "acct" from matching "acct2".
  std::string prefix(account);
  prefix.push_back('\0');
  ForgetPrefix(prefix);
}

void PartitionTable::ForgetTable(std::string_view account, std::string_view table) {
  // "account\0table-lowercase\0" (BuildKey with an empty PartitionKey).
  std::string prefix;
  BuildKey(PartitionName{account, table, {}}, prefix);
  ForgetPrefix(prefix);
}

void PartitionTable::ForgetPrefix(std::string_view prefix) {
  for (Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mutex);
    std::erase_if(shard.map, [prefix](const auto& entry) {
      return std::string_view(entry.first).starts_with(prefix);
    });
  }
}

void PartitionTable::ForEach(
    const std::function<void(const PartitionName&, const PartitionState&)>& fn) const {
  for (const Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mutex);
    for (const auto& [key, state] : shard.map) {
      const std::string_view view(key);
      const std::size_t first = view.find('\0');
      const std::size_t second = view.find('\0', first + 1);
      fn(PartitionName{view.substr(0, first), view.substr(first + 1, second - first - 1),
                       view.substr(second + 1)},
         state);
    }
  }
}

std::size_t PartitionTable::size() const {
  std::size_t total = 0;
  for (const Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mutex);
    total += shard.map.size();
  }
  return total;
}

}  // namespace malachite::server
