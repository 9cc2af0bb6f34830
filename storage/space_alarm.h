// The space alarm (after etcd's NOSPACE alarm; storage/FORMAT.md, "Full disks"): raised when a
// commit finds the data disk full. Raising it gives the space reserve back to the file system;
// while it is raised, writes that add data are refused before they touch LMDB
// (TxnWriteContext::SetSpaceAlarm) and deletes are admitted, so deletes get the reserve's blocks
// for the fresh pages LMDB needs even to delete. It clears once the disk has room again or the
// deletes have freed enough pages inside the environment.
#pragma once

#include <lmdb.h>

#include <atomic>
#include <cstdint>
#include <memory>

#include "common/error.h"
#include "storage/lmdb_env.h"
#include "storage/page_stats.h"
#include "storage/space_reserve.h"

namespace malachite::storage {

// Bytes of pages that must be free inside the environment (freed by deletes) before the alarm
// clears on a disk that is still full.
inline constexpr std::uint64_t kSpaceAlarmClearFreeBytes = 256u << 10;

class SpaceAlarm {
 public:
  // `reserve` may hold nothing (a disk already full at open): then the alarm starts raised.
  // `env` must outlive the alarm.
  SpaceAlarm(const LmdbEnv& env, std::unique_ptr<SpaceReserve> reserve);

  // Cheap (one relaxed atomic load): the hot path's only cost.
  bool raised() const { return raised_.load(std::memory_order_relaxed); }
  // A commit failed for space: raises the alarm and gives the reserve back. Returns the bytes
  // given back (0 when already raised). REQUIRES: called by the committing thread.
  std::uint64_t Raise();
  // Whether the alarm is (still) raised, clearing it first when the disk has room for twice the
  // reserve again (the reserve is taken whole), or when at least kSpaceAlarmClearFreeBytes of
  // pages are free inside the environment (then one commit that changes nothing visible makes the
  // last commit's freed pages reusable, and the reserve takes what the disk has room for: the
  // fence for the next fill). Costs an fstatvfs and a read of LMDB's free list while raised;
  // nothing otherwise.
  // REQUIRES: called by the committing thread, outside any write transaction.
  bool Check();
  std::uint64_t reserve_held() const { return reserve_->held(); }

 private:
  // Commits format_version unchanged (storage/space_alarm.cc says why). False on failure.
  bool CommitNothing();

  const LmdbEnv& env_;
  std::unique_ptr<SpaceReserve> reserve_;
  std::atomic<bool> raised_{false};
};

}  // namespace malachite::storage
