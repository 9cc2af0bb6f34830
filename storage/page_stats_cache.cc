#include "storage/page_stats_cache.h"

#include "storage/lmdb_error.h"

namespace malachite::storage {

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
