// The catalog's generation, and the tables read views found in it, kept per thread: a point read
// or a query finds its table without a catalog lookup in LMDB while no table is created or
// deleted.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

#include "storage/store.h"

namespace malachite::storage {

// A seqlock over the catalog and the settings database (StoreGeneration, for the server's caches of
// settings). The writer makes it odd before a write transaction changes either and even again once
// that transaction has committed or aborted; a reader reads it before and after its snapshot
// starts. A snapshot that started while the value stayed at one even value sees the catalog (and
// the settings) every other such snapshot sees, so a table found in one is the same table in all
// of them.
class CatalogGeneration {
 public:
  // Never a stable generation (odd): a view with it looks every table up.
  static constexpr std::uint64_t kUnstable = 1;

  CatalogGeneration();  // a store id unique in the process
  CatalogGeneration(const CatalogGeneration&) = delete;
  CatalogGeneration& operator=(const CatalogGeneration&) = delete;

  // Writer side. REQUIRES: one write transaction at a time (LMDB's own rule); BeginChange before
  // the changing transaction commits, EndChange after it committed or aborted.
  void BeginChange() const noexcept;
  void EndChange() const noexcept;

  // Reader side: `before` = Before() read before the snapshot starts; After(before), read after
  // it started, is the generation the snapshot may share tables within, or kUnstable.
  std::uint64_t Before() const noexcept;
  std::uint64_t After(std::uint64_t before) const noexcept;

  std::uint64_t store_id() const { return store_id_; }

 private:
  mutable std::atomic<std::uint64_t> value_{0};
  const std::uint64_t store_id_;
};

// The table `name` of `account` as a view of `generation` of store `store_id` found it on this
// thread, or null (never for kUnstable). `name` matches as asked, case and all: another spelling
// is looked up (and kept) once itself. The pointer lives until this thread's next CacheTable.
const TableInfo* FindCachedTable(std::uint64_t store_id, std::uint64_t generation,
                                 std::string_view account, std::string_view name);
// Keeps `table`, found by asking for `name` in a view of `generation` (not kUnstable), for this
// thread's later views of that generation; the oldest of a few kept tables makes room.
void CacheTable(std::uint64_t store_id, std::uint64_t generation, std::string_view name,
                const TableInfo& table);

}  // namespace malachite::storage
