#include "storage/page_stats.h"

#include <cstddef>
#include <cstring>

#include "storage/lmdb_env.h"
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

PageStats PageStatsCache::Get() {
  std::lock_guard<std::mutex> lock(mu_);
  const auto now = std::chrono::steady_clock::now();
  if (last_txnid_ != 0 && now - read_at_ < min_interval_) return last_;
  MapGate::Pass pass(env_.gate());
  if (!pass) return last_;
  MDB_envinfo info{};
  if (mdb_env_info(env_.get(), &info) != 0) return last_;
  const std::uint64_t txnid = static_cast<std::uint64_t>(info.me_last_txnid) + 1;
  if (txnid == last_txnid_) return last_;  // no commit since: the free list is as read
  // A scrape pays one step per free-list record, at most once per min_interval_.
  if (auto stats = ReadPageStats(env_.get())) {
    last_ = *stats;
    last_txnid_ = txnid;
    read_at_ = now;
  }
  return last_;
}

Result<PageStats> PageStatsCache::ReadNow() {
  std::lock_guard<std::mutex> lock(mu_);
  MapGate::Pass pass(env_.gate());
  if (!pass) return tl::unexpected<Error>(env_.gate().broken_error());
  MDB_envinfo info{};
  if (int rc = mdb_env_info(env_.get(), &info); rc != 0) {
    return tl::unexpected<Error>(LmdbError(rc, "mdb_env_info"));
  }
  auto stats = ReadPageStats(env_.get());
  if (!stats) return tl::unexpected<Error>(stats.error());
  last_ = *stats;
  last_txnid_ = static_cast<std::uint64_t>(info.me_last_txnid) + 1;
  read_at_ = std::chrono::steady_clock::now();
  return last_;
}

}  // namespace malachite::storage
