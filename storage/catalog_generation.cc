#include "storage/catalog_generation.h"

#include <array>
#include <string>

namespace malachite::storage {

namespace {

// Ids tell stores apart in the per-thread cache (a new store may reuse a destroyed one's address).
std::atomic<std::uint64_t> next_store_id{1};

struct CachedTable {
  std::uint64_t store_id = 0;  // 0: empty
  std::uint64_t generation = CatalogGeneration::kUnstable;
  std::string name;  // as asked
  TableInfo table;
};

// A handful: a test suite or a service reads a few tables at a time, and a miss only costs the
// catalog lookup the cache saves.
struct ThreadCache {
  std::array<CachedTable, 8> slots;
  std::size_t next = 0;
};

thread_local ThreadCache cache;

}  // namespace

CatalogGeneration::CatalogGeneration() : store_id_(next_store_id.fetch_add(1)) {}

void CatalogGeneration::BeginChange() const noexcept {
  // The fence keeps the transaction's writes (its commit) after this store: odd is visible
  // before anything the transaction commits can be.
  value_.fetch_add(1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

void CatalogGeneration::EndChange() const noexcept {
  value_.fetch_add(1, std::memory_order_release);
}

std::uint64_t CatalogGeneration::Before() const noexcept {
  return value_.load(std::memory_order_acquire);
}

std::uint64_t CatalogGeneration::After(std::uint64_t before) const noexcept {
  // The snapshot's start (LMDB reading the newest meta page) is ordered before this load, as a
  // seqlock reader's data reads are: a commit the snapshot sees was preceded by BeginChange, so
  // this load sees `before` + 1 or more.
  std::atomic_thread_fence(std::memory_order_acquire);
  const std::uint64_t after = value_.load(std::memory_order_relaxed);
  return after == before && before % 2 == 0 ? before : kUnstable;
}

const TableInfo* FindCachedTable(std::uint64_t store_id, std::uint64_t generation,
                                 std::string_view account, std::string_view name) {
  if (generation == CatalogGeneration::kUnstable) return nullptr;
  for (const CachedTable& slot : cache.slots) {
    if (slot.store_id == store_id && slot.generation == generation && slot.name == name &&
        slot.table.account == account) {
      return &slot.table;
    }
  }
  return nullptr;
}

void CacheTable(std::uint64_t store_id, std::uint64_t generation, std::string_view name,
                const TableInfo& table) {
  if (generation == CatalogGeneration::kUnstable) return;
  CachedTable& slot = cache.slots[cache.next];
  cache.next = (cache.next + 1) % cache.slots.size();
  slot.store_id = store_id;
  slot.generation = generation;
  slot.name.assign(name);
  slot.table = table;
}

}  // namespace malachite::storage
