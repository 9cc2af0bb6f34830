#include "storage/space_alarm.h"

#include "storage/lmdb_error.h"
#include "storage/lmdb_txn.h"
#include "storage/store_meta.h"

namespace malachite::storage {

SpaceAlarm::SpaceAlarm(const LmdbEnv& env, std::unique_ptr<SpaceReserve> reserve)
    : env_(env), reserve_(std::move(reserve)) {
  // Emulator: a reserve that holds nothing (a run killed during an alarm gave it back, or the disk
  // has no room even for 64 KiB) starts the alarm raised: deletes first, then writes resume.
  raised_.store(reserve_->wanted() > 0 && reserve_->held() == 0, std::memory_order_relaxed);
}

std::uint64_t SpaceAlarm::Raise() {
  if (raised()) return 0;
  raised_.store(true, std::memory_order_relaxed);
  return reserve_->Release();
}

bool SpaceAlarm::Check() {
  if (!raised()) return false;
  // Room for the whole reserve and as much again: the disk was freed from outside (a file
  // removed, a volume grown). Room for the reserve alone is what raising the alarm gave back.
  if (reserve_->DiskRoom() >= 2 * reserve_->wanted() && reserve_->TakeAll()) {
    raised_.store(false, std::memory_order_relaxed);
    return false;
  }
  // LMDB: deletes free pages inside data.mdb, never blocks of the file system (the file does not
  // shrink). Once enough are free, writes may go on in them; the reserve takes whatever blocks
  // the deletes left over, so the next fill finds the disk full with a reserve to give back.
  auto free_bytes = FreeListBytes(env_.get());
  if (!free_bytes || *free_bytes < kSpaceAlarmClearFreeBytes) return true;
  if (!CommitNothing()) return true;
  reserve_->TakeWhatFits();
  raised_.store(false, std::memory_order_relaxed);
  return false;
}

bool SpaceAlarm::CommitNothing() {
  // LMDB: the pages a commit frees are reusable only by the commit after the next one
  // (mdb_page_alloc takes free-list records older than the last transaction), and the deletes
  // that freed them may be the last commits before inserts resume: without one more commit every
  // insert would need fresh pages from a full disk, fail, and commit nothing. Rewriting a value
  // copies a few pages (the disk has room: the reserve is not taken back yet) and moves the
  // transaction id.
  auto txn = LmdbTxn::Begin(env_.get(), nullptr, 0);
  if (!txn) return false;
  auto version = ReadMetaU64(txn->get(), env_.dbs().meta, kMetaFormatVersion);
  if (!version || !*version) return false;
  if (!WriteMetaU64(txn->get(), env_.dbs().meta, kMetaFormatVersion, **version)) return false;
  return txn->Commit().has_value();
}

}  // namespace malachite::storage
