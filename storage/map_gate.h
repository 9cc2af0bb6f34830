// The gate that growing the map closes (storage/FORMAT.md, "The map grows as needed"), and so
// does a compaction in place, which closes and reopens the whole environment under it
// (LmdbEnv::CompactInPlace; "the grower" below is either).
//
// LMDB: mdb_env_set_mapsize unmaps the environment and maps it again, possibly elsewhere, so no
// transaction of the process may be active while it runs: a reader's pointers into the map (its
// pages, the values it returned, the meta pages mdb_env_info reads) would dangle. Reset read
// transactions (ReadTxnPool's kept ones) hold no such pointer. Write transactions are kept out by
// the writers' own lock (GroupWriter's commit mutex, held by the grower); readers pass this gate.
//
// Readers are many and the grower is rare, so a pass costs a reader one atomic add on a counter of
// its thread's stripe (a cache line few other threads share) and one load of the gate's state,
// and no lock; the grower closes the gate, waits until the stripes sum to zero, remaps and opens
// it again. A reader that finds the gate closed waits on a condition variable until it opens.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <shared_mutex>

#include "common/error.h"
#include "common/function_ref.h"

namespace malachite::storage {

class MapGate {
 public:
  static constexpr std::size_t kStripes = 16;

  MapGate() = default;
  MapGate(const MapGate&) = delete;
  MapGate& operator=(const MapGate&) = delete;

  // The calling thread's stripe (threads are spread over them in the order they first ask), for
  // Enter and Leave, and for ReadTxnPool, whose places follow the same spread. Inline, and the
  // thread-local constant-initialized, so a read pays one thread-local load for it.
  static std::size_t HomeStripe() noexcept {
    static thread_local std::size_t home = kStripes;  // kStripes: not assigned yet
    if (home == kStripes) home = NextStripe();
    return home;
  }

  // Reader side, around anything that reads the map: an active read transaction, mdb_env_info.
  // Enters at once while the gate is open, waits while the map is being grown; false (at once)
  // when the map is gone (broken()), and then the caller is not inside. `stripe`: HomeStripe().
  bool Enter(std::size_t stripe) noexcept {
    stripes_[stripe].inside.fetch_add(1, std::memory_order_seq_cst);
    if (state_.load(std::memory_order_seq_cst) == kOpen) return true;
    return EnterSlow(stripe);
  }
  // Leaves what a true Enter entered: any thread, with its own HomeStripe() (the grower counts
  // the stripes' sum, so a reader may leave through another stripe than it entered by).
  void Leave(std::size_t stripe) noexcept {
    stripes_[stripe].inside.fetch_sub(1, std::memory_order_release);
  }

  // Enter and Leave for the rare readers outside ReadTxnPool (the reclaimer, the flusher).
  class Pass {
   public:
    explicit Pass(MapGate& gate)
        : gate_(gate), stripe_(HomeStripe()), inside_(gate.Enter(stripe_)) {}
    ~Pass() {
      if (inside_) gate_.Leave(stripe_);
    }
    Pass(const Pass&) = delete;
    Pass& operator=(const Pass&) = delete;
    // False when the map is gone: read nothing.
    explicit operator bool() const { return inside_; }

   private:
    MapGate& gate_;
    const std::size_t stripe_;
    const bool inside_;
  };

  // For a reader that stays long (a backup copies the whole map in one read transaction): held
  // instead of a pass, so a growth waits for it with the gate open rather than closing the gate
  // on every other reader for the copy's duration. Check broken() once it is held.
  std::shared_lock<std::shared_mutex> EnterLong() {
    return std::shared_lock<std::shared_mutex>(long_mu_);
  }

  // Grower side: waits for the long readers to finish, closes the gate, waits until no reader is
  // inside, runs `remap`, and opens the gate again, unless `remap` called Break. Readers that
  // arrive meanwhile wait. REQUIRES: the calling thread is inside no pass and holds no long read.
  void Remap(FunctionRef<void()> remap);
  // Inside `remap`: the map is gone (LMDB unmapped it and could not map it again), for good: the
  // gate stays shut and every Enter fails from now on; `error` says why (broken_error()).
  void Break(Error error);

  bool broken() const noexcept { return state_.load(std::memory_order_acquire) == kBroken; }
  // The error Break was given. REQUIRES: broken().
  Error broken_error() const;

 private:
  enum State : int { kOpen, kClosed, kBroken };
  struct alignas(64) Stripe {
    std::atomic<std::uint64_t> inside{0};  // enters less leaves through this stripe (modulo 2^64)
  };

  static std::size_t NextStripe() noexcept;
  bool EnterSlow(std::size_t stripe) noexcept;
  void SetState(State state);
  void WaitUntilEmpty() const;

  std::array<Stripe, kStripes> stripes_{};
  std::atomic<int> state_{kOpen};
  std::shared_mutex long_mu_;
  mutable std::mutex mu_;  // state changes, the wait for the gate to open, broken_error_
  std::condition_variable opened_;
  Error broken_error_;
};

}  // namespace malachite::storage
