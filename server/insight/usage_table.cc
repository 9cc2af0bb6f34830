#include "server/insight/usage_table.h"

#include <algorithm>

namespace malachite::server {
namespace {

std::atomic<std::uint64_t> next_id{1};

struct LastEntry {
  std::uint64_t owner = 0;
  std::string account, table;  // as the request named them
  TableUsage* usage = nullptr;
  std::size_t shard = 0;       // the index of the shard holding `usage`
  std::uint64_t erasures = 0;  // the shard's count when `usage` was found
};

}  // namespace

UsageTable::UsageTable(std::size_t capacity)
    : id_(next_id.fetch_add(1, std::memory_order_relaxed)), capacity_(capacity) {}

TableUsage& UsageTable::Locate(std::string_view account, std::string_view table,
                               std::unique_lock<std::mutex>& lock) {
  thread_local LastEntry last;
  if (last.owner == id_ && last.account == account && last.table == table) {
    Shard& shard = shards_[last.shard];
    lock = std::unique_lock<std::mutex>(shard.mutex);
    // Compared under the shard's lock, which ForgetAccount holds while it erases and moves the
    // count: an unmoved count means the entry has not been erased since this thread found it (a
    // pointer to an erased entry is never followed, even if a new entry took its address).
    if (shard.erasures == last.erasures) return *last.usage;
    lock.unlock();
    last.owner = 0;
  }
  {
    const std::string& key = Key(account, table);
    const std::size_t index = TransparentStringHash{}(key) % kShards;
    Shard& shard = shards_[index];
    lock = std::unique_lock<std::mutex>(shard.mutex);
    if (TableUsage* usage = Find(shard, key, account, table)) {
      // assign() keeps the strings' capacity: no allocation once warm.
      last.owner = id_;
      last.account.assign(account);
      last.table.assign(table);
      last.usage = usage;
      last.shard = index;
      last.erasures = shard.erasures;
      return *usage;
    }
    lock.unlock();
  }
  // Full: the table shares its account's overflow entry (one lock at a time: no ordering).
  const std::string& other = Key(account, kOtherTables);
  Shard& shard = shards_[TransparentStringHash{}(other) % kShards];
  lock = std::unique_lock<std::mutex>(shard.mutex);
  return *Create(shard, other, account, kOtherTables);
}

const std::string& UsageTable::Key(std::string_view account, std::string_view table) {
  thread_local std::string key;
  key.assign(account);
  key.push_back('\0');
  key.append(table);
  for (std::size_t i = account.size() + 1; i < key.size(); ++i) {
    if (key[i] >= 'A' && key[i] <= 'Z') key[i] = static_cast<char>(key[i] + 32);
  }
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

void UsageTable::ForgetAccount(std::string_view account) {
  for (Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mutex);
    const std::size_t erased = std::erase_if(
        shard.map, [account](const auto& entry) { return entry.second.account == account; });
    if (erased == 0) continue;
    ++shard.erasures;
    size_.fetch_sub(erased, std::memory_order_relaxed);
  }
}

std::size_t UsageTable::size() const { return size_.load(std::memory_order_relaxed); }

}  // namespace malachite::server
