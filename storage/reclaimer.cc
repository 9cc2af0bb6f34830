#include "storage/reclaimer.h"

#include <chrono>
#include <future>

#include "storage/key_codec.h"
#include "storage/lmdb_txn.h"

namespace malachite::storage {
namespace {

// After a failed step (e.g. the disk is full) wait before trying again.
constexpr auto kRetryDelay = std::chrono::seconds(1);

}  // namespace

Reclaimer::Reclaimer(const StoreCore& core, GroupWriter& writer, std::size_t chunk_records)
    : core_(core), writer_(writer), chunk_records_(chunk_records) {
  thread_ = std::thread([this] { Run(); });
}

Reclaimer::~Reclaimer() { Stop(); }

void Reclaimer::Kick() {
  std::lock_guard<std::mutex> lock(mu_);
  kicked_ = true;
  idle_ = false;
  cv_.notify_one();
}

void Reclaimer::WaitIdle() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_cv_.wait(lock, [this] { return (idle_ && !kicked_) || stopping_; });
}

void Reclaimer::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    cv_.notify_one();
    idle_cv_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

void Reclaimer::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (!kicked_) {
      idle_ = true;
      idle_cv_.notify_all();
      cv_.wait(lock, [this] { return kicked_ || stopping_; });
      continue;
    }
    kicked_ = false;
    lock.unlock();
    Result<bool> more = true;
    while (more && *more) {
      more = Step();
      std::lock_guard<std::mutex> check(mu_);
      if (stopping_) break;
    }
    lock.lock();
    if (!more) {
      // Try again later; WaitIdle keeps waiting meanwhile.
      kicked_ = true;
      cv_.wait_for(lock, kRetryDelay, [this] { return stopping_; });
    }
  }
}

Result<bool> Reclaimer::Step() {
  std::optional<std::uint64_t> id;
  {
    MapGate::Pass pass(core_.env->gate());
    if (!pass) return tl::unexpected<Error>(core_.env->gate().broken_error());
    auto txn = LmdbTxn::Begin(core_.env->get(), nullptr, MDB_RDONLY);
    if (!txn) return tl::unexpected<Error>(txn.error());
    auto first = core_.catalog.FirstReclaim(txn->get());
    if (!first) return tl::unexpected<Error>(first.error());
    id = *first;
  }
  if (!id) return false;
  std::size_t chunk = chunk_records_;
  auto fn = [id = *id, chunk](WriteContext& context) -> Result<void> {
    auto& ctx = static_cast<TxnWriteContext&>(context);
    const StoreCore& core = ctx.core();
    auto deleted = core.entities.DeletePrefix(ctx.txn(), EncodeTablePrefix(id), chunk);
    if (!deleted) return tl::unexpected<Error>(deleted.error());
    if (*deleted < chunk) return core.catalog.FinishReclaim(ctx.txn(), id);
    return {};
  };
  std::promise<Result<void>> promise;
  auto future = promise.get_future();
  writer_.Submit(fn, [&promise](Result<void> r) { promise.set_value(std::move(r)); });
  Result<void> result = future.get();
  if (!result) return tl::unexpected<Error>(result.error());
  return true;
}

}  // namespace malachite::storage
