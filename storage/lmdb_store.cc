#include "storage/lmdb_store.h"

#include <future>

#include "storage/backup.h"
#include "storage/compaction.h"
#include "storage/lmdb_read_view.h"
#include "storage/overflow_bucket.h"
#include "storage/store_meta.h"

namespace malachite::storage {

Result<std::unique_ptr<Store>> Store::Open(const StoreOptions& options, const Clock& clock) {
  LmdbEnvOptions env_options;
  env_options.dir = options.data_dir;
  env_options.map_size = options.map_size_bytes;
  env_options.initial_map_size = options.initial_map_size_bytes;
  env_options.on_map_growth = options.on_map_growth;
  env_options.durability = options.durability;
  auto env = LmdbEnv::Open(env_options);
  if (!env) return tl::unexpected<Error>(env.error());
  // Opened first, so that a store this build refuses (format version) is left untouched; nothing
  // else has the environment yet, so its pages are read without the gate. Read only when asked:
  // the free list's walk grows with the churn the store has seen.
  const auto compaction_pays = [&] {
    auto pages = ReadPageStats((*env)->get());
    return pages && CompactionPaysAtOpen(*pages);
  };
  if (options.compact_at_open && compaction_pays()) {
    env->reset();  // releases the directory's lock, which the compaction takes
    auto compacted = CompactDataDir(options.data_dir);
    if (options.on_compaction) {
      CompactionReport report;
      report.at_open = true;
      if (compacted) {
        report.bytes_before = compacted->bytes_before;
        report.bytes_after = compacted->bytes_after;
      } else {
        report.error = compacted.error();
      }
      options.on_compaction(report);
    }
    env = LmdbEnv::Open(env_options);
    if (!env) return tl::unexpected<Error>(env.error());
  }
  // LMDB: the overflow-bucket scheme needs bucket keys (kBucketKeyBytes) to fit.
  if (static_cast<std::size_t>(mdb_env_get_maxkeysize((*env)->get())) < kBucketKeyBytes) {
    return Fail(ErrorCode::kInternalError, "storage: this liblmdb's MDB_MAXKEYSIZE is below " +
                                               std::to_string(kBucketKeyBytes) + " bytes");
  }
  auto last_ticks = InitMeta((*env)->get(), (*env)->dbs().meta);
  if (!last_ticks) {
    return Fail(ErrorCode::kInternalError,
                "data directory " + options.data_dir + ": " + last_ticks.error().message);
  }
  std::unique_ptr<SpaceReserve> reserve;
  if (options.space_reserve_bytes > 0) {
    auto opened = SpaceReserve::Open(options.data_dir, options.space_reserve_bytes);
    if (!opened) return tl::unexpected<Error>(opened.error());
    reserve = std::move(*opened);
  } else {
    SpaceReserve::RemoveLeftover(options.data_dir);
  }
  return std::unique_ptr<Store>(
      new LmdbStore(std::move(*env), std::move(reserve), clock, *last_ticks, options));
}

LmdbStore::LmdbStore(std::unique_ptr<LmdbEnv> env, std::unique_ptr<SpaceReserve> reserve,
                     const Clock& clock, std::int64_t last_ticks, const StoreOptions& options)
    : core_(std::move(env)), on_compaction_(options.on_compaction) {
  if (reserve) space_alarm_ = std::make_unique<SpaceAlarm>(*core_.env, std::move(reserve));
  // With kFull a commit waits for its fsync: that wait belongs on the writer thread, never on
  // a caller's (an I/O thread serving other connections), so TryWrite declines.
  const bool allow_inline = options.durability != Durability::kFull;
  writer_ = std::make_unique<GroupWriter>(
      core_, clock, last_ticks, options.max_batch, allow_inline, [this] { reclaimer_->Kick(); },
      space_alarm_.get());
  reclaimer_ = std::make_unique<Reclaimer>(core_, *writer_);
  if (options.durability != Durability::kNone) {
    flusher_ = std::make_unique<EnvFlusher>(*core_.env, options.sync_interval,
                                            options.on_background_error);
  }
  if (options.compact_while_serving) {
    compaction_timer_ = std::make_unique<CompactionTimer>(
        options.compaction_check_interval, options.compaction_min_interval,
        [this] { return CompactionPays(); }, [this] { CompactAndReport(); });
  }
}

LmdbStore::~LmdbStore() {
  // A compaction under way finishes first (it holds the writer). The reclaimer may be waiting on
  // the writer: stop it next, then drain the writer, then sync what the last commits left in the
  // page cache (a clean shutdown loses nothing to a host crash).
  if (compaction_timer_) compaction_timer_->Stop();
  reclaimer_->Stop();
  writer_->Stop();
  if (flusher_) flusher_->Stop();
}

StoreStats LmdbStore::Stats() const {
  StoreStats stats = writer_->Stats();
  if (flusher_) stats.syncs = flusher_->syncs();
  stats.map_size_bytes = core_.env->map_size();
  stats.map_growths = core_.env->map_growths();
  const PageStats pages = page_stats_.Get();
  stats.page_size_bytes = pages.page_size;
  stats.pages_live = pages.pages_live();
  stats.pages_free = pages.pages_free;
  stats.compactions = compactions_.load(std::memory_order_relaxed);
  return stats;
}

Result<std::unique_ptr<ReadView>> LmdbStore::Read() {
  // The generation is read around the snapshot's start (catalog_generation.h).
  const std::uint64_t before = core_.generation.Before();
  auto txn = read_txns_.Acquire();
  if (!txn) return tl::unexpected<Error>(txn.error());
  return std::unique_ptr<ReadView>(
      new LmdbReadView(core_, read_txns_, *txn, core_.generation.After(before)));
}

void LmdbStore::Submit(WriteFn fn, WriteDone done) {
  writer_->Submit(std::move(fn), std::move(done));
}

Result<void> LmdbStore::Write(WriteFn fn) {
  if (auto done = TryWrite(fn)) return std::move(*done);
  std::promise<Result<void>> promise;
  auto future = promise.get_future();
  Submit(std::move(fn), [&promise](Result<void> r) { promise.set_value(std::move(r)); });
  return future.get();
}

void LmdbStore::WaitForReclaim() { reclaimer_->WaitIdle(); }

Result<std::uint64_t> LmdbStore::Backup(const std::string& dest_dir) {
  // LMDB: mdb_env_copy2 reads the map in a read transaction of its own for the whole copy: a
  // growth waits for it to end, with the gate open to the other readers meanwhile.
  auto long_read = core_.env->gate().EnterLong();
  if (core_.env->gate().broken()) return tl::unexpected<Error>(core_.env->gate().broken_error());
  auto info = CopyEnvironment(core_.env->get(), dest_dir);
  if (!info) return tl::unexpected<Error>(info.error());
  return info->bytes;
}

Result<CompactionReport> LmdbStore::Compact() {
  std::lock_guard<std::mutex> one(compact_mu_);
  const auto start = std::chrono::steady_clock::now();
  Result<CompactionInfo> info = Fail(ErrorCode::kInternalError, "storage: not compacted");
  writer_->RunExclusive([&] {
    // The flusher must not sync an environment being closed; the copy that replaces it is
    // synced (InstallCompactedCopy), so every commit made before is as durable as a sync makes it.
    const auto swap = [&] { info = core_.env->CompactInPlace([this] { read_txns_.AbortKept(); }); };
    if (flusher_) {
      flusher_->RunBetweenSyncs(swap);
    } else {
      swap();
    }
    // The scrapes' figures describe the old file, and the new one numbers its commits anew.
    (void)page_stats_.ReadNow();
  });
  if (!info) return tl::unexpected<Error>(info.error());
  compactions_.fetch_add(1, std::memory_order_relaxed);
  CompactionReport report;
  report.bytes_before = info->bytes_before;
  report.bytes_after = info->bytes_after;
  report.took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  return report;
}

bool LmdbStore::CompactionPays() {
  // A full disk has no room for the copy; the space alarm's own way out is the deletes.
  if (SpaceAlarmRaised()) return false;
  // The scrapes' cache: the free list is walked again only when something was committed since
  // (an idle server's check costs one mdb_env_info); Compact refreshes it after each compaction.
  return CompactionPaysWhileServing(page_stats_.Get());
}

void LmdbStore::CompactAndReport() {
  auto compacted = Compact();
  if (!on_compaction_) return;
  if (compacted) {
    on_compaction_(*compacted);
    return;
  }
  CompactionReport report;
  report.error = compacted.error();
  on_compaction_(report);
}

}  // namespace malachite::storage
