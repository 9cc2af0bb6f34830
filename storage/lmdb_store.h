// The Store implementation: environment, group writer and reclaimer (storage/FORMAT.md).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>

#include "storage/compaction_timer.h"
#include "storage/env_flusher.h"
#include "storage/group_writer.h"
#include "storage/page_stats_cache.h"
#include "storage/read_txn_pool.h"
#include "storage/reclaimer.h"
#include "storage/space_alarm.h"
#include "storage/store.h"
#include "storage/store_core.h"

namespace malachite::storage {

class LmdbStore final : public Store {
 public:
  // `reserve` may be null (no space alarm).
  LmdbStore(std::unique_ptr<LmdbEnv> env, std::unique_ptr<SpaceReserve> reserve, const Clock& clock,
            std::int64_t last_ticks, const StoreOptions& options);
  ~LmdbStore() override;

  Result<std::unique_ptr<ReadView>> Read() override;
  void Submit(WriteFn fn, WriteDone done) override;
  std::optional<Result<void>> TryWrite(WriteFn& fn) override { return writer_->TryWrite(fn); }
  std::optional<std::vector<Result<void>>> TryWriteGroup(std::span<WriteFn> fns) override {
    return writer_->TryWriteGroup(fns);
  }
  Result<void> Write(WriteFn fn) override;
  void WaitForReclaim() override;
  StoreStats Stats() const override;
  bool SpaceAlarmRaised() const override { return space_alarm_ && space_alarm_->raised(); }
  StoreGeneration Generation() const override {
    return {core_.generation.store_id(), core_.generation.Before()};
  }
  Result<std::uint64_t> Backup(const std::string& dest_dir) override;
  Result<CompactionReport> Compact() override;

 private:
  // The timer's check: CompactionPaysWhileServing on the scrapes' cached pages (at most a second
  // old, and read again only after a commit).
  bool CompactionPays();
  // The timer's compaction: Compact, reported to on_compaction_.
  void CompactAndReport();

  StoreCore core_;
  ReadTxnPool read_txns_{*core_.env};        // before core_ closes the env
  std::unique_ptr<SpaceAlarm> space_alarm_;  // null without a reserve; outlives writer_
  std::unique_ptr<GroupWriter> writer_;
  std::unique_ptr<Reclaimer> reclaimer_;
  std::unique_ptr<EnvFlusher> flusher_;  // null for Durability::kNone
  mutable PageStatsCache page_stats_{*core_.env};
  std::function<void(const CompactionReport&)> on_compaction_;
  std::mutex compact_mu_;  // one compaction at a time
  std::atomic<std::uint64_t> compactions_{0};
  std::unique_ptr<CompactionTimer> compaction_timer_;  // null unless compact_while_serving
};

}  // namespace malachite::storage
