#include "storage/page_stats.h"

#include <cstddef>
#include <cstring>

#include "storage/lmdb_error.h"
#include "storage/lmdb_txn.h"

namespace malachite::storage {

Result<PageStats> ReadPageStats(MDB_env* env) {
  auto txn = LmdbTxn::Begin(env, nullptr, MDB_RDONLY);
  if (!txn) return tl::unexpected<Error>(txn.error());
  MDB_stat stat{};
  if (const int rc = mdb_env_stat(env, &stat); rc != 0) {
    return tl::unexpected<Error>(LmdbError(rc, "env stat"));
  }
  MDB_envinfo info{};
  if (const int rc = mdb_env_info(env, &info); rc != 0) {
    return tl::unexpected<Error>(LmdbError(rc, "env info"));
  }
  PageStats stats;
  stats.page_size = stat.ms_psize;
  stats.pages_total = static_cast<std::uint64_t>(info.me_last_pgno) + 1;
  // LMDB: database 0 is the free list (FREE_DBI), readable in a read transaction: key a txnid,
  // value an ID list (MDB_ID, a size_t in LMDB 0.9) whose first element is its length.
  auto cursor = LmdbCursor::Open(txn->get(), 0);
  if (!cursor) return tl::unexpected<Error>(cursor.error());
  MDB_val key{}, value{};
  for (;;) {
    auto positioned = cursor->Get(MDB_NEXT, &key, &value);
    if (!positioned) return tl::unexpected<Error>(positioned.error());
    if (!*positioned) break;
    ++stats.free_records;
    if (value.mv_size < sizeof(std::size_t)) continue;
    std::size_t count = 0;
    std::memcpy(&count, value.mv_data, sizeof(count));
    stats.pages_free += count;
  }
  return stats;
}

Result<std::uint64_t> FreeListBytes(MDB_env* env) {
  auto stats = ReadPageStats(env);
  if (!stats) return tl::unexpected<Error>(stats.error());
  return stats->pages_free * stats->page_size;
}

}  // namespace malachite::storage
