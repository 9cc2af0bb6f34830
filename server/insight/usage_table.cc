#include "server/insight/usage_table.h"

#include <algorithm>

namespace malachite::server {

const std::string& UsageTable::Key(std::string_view account, std::string_view table) {
  thread_local std::string key;
  key.clear();
  key.append(account);
  key.push_back('\0');
  for (char c : table) key.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c);
  return key;
}

TableUsage* UsageTable::Find(Shard& shard, const std::string& key, std::string_view account,
                             std::string_view table) {
  if (auto it = shard.map.find(std::string_view(key)); it != shard.map.end()) return &it->second;
  if (size_.load(std::memory_order_relaxed) >= capacity_) return nullptr;
  return Create(shard, key, account, table);
}

TableUsage* UsageTable::Create(Shard& shard, const std::string& key, std::string_view account,
                               std::string_view table) {
  auto [it, inserted] = shard.map.try_emplace(key);
  if (inserted) {
    it->second.account = account;
    it->second.table = table;
    size_.fetch_add(1, std::memory_order_relaxed);
  }
  return &it->second;
}

std::vector<TableUsage> UsageTable::Snapshot() const {
  std::vector<TableUsage> out;
  for (const Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mutex);
    for (const auto& [key, usage] : shard.map) out.push_back(usage);
  }
  std::sort(out.begin(), out.end(), [](const TableUsage& a, const TableUsage& b) {
    return std::tie(a.account, a.table) < std::tie(b.account, b.table);
  });
  return out;
}

void UsageTable::ResetBill() {
  for (Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mutex);
    for (auto& [key, usage] : shard.map) usage.transactions.fill(0);
  }
}

void UsageTable::ResetObservations() {
  for (Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mutex);
    for (auto& [key, usage] : shard.map) server::ResetObservations(usage);
  }
}

std::size_t UsageTable::size() const { return size_.load(std::memory_order_relaxed); }

}  // namespace malachite::server
