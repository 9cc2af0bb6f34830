#include "server/traffic/throttle.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <iterator>

namespace malachite::server {
namespace {

// Refusals further apart than this end a "hot" spell of the rebalancing emulation: SDK retry
// policies back off for a few seconds at most before they try again.
constexpr std::int64_t kHotGap = 4 * RateLimit::kUnitsPerSecond;

}  // namespace

std::string_view ThrottleVerdictName(ThrottleVerdict verdict) {
  switch (verdict) {
    case ThrottleVerdict::kAdmitted:
      return "admitted";
    case ThrottleVerdict::kPartitionBusy:
      return "partition";
    case ThrottleVerdict::kAccountBusy:
      return "account";
    case ThrottleVerdict::kPartitionOffline:
      return "offline";
  }
  return "unknown";
}

Throttle::Throttle(const ServerConfig& config, const Clock& clock)
    : config_(config.throttle),
      clock_(clock),
      partition_limit_(config_.partition_rate, config_.burst_ms),
      partitions_(config_.max_tracked_partitions),
      rebalance_after_(static_cast<std::int64_t>(config_.rebalance_after_seconds) *
                       RateLimit::kUnitsPerSecond),
      rebalance_offline_(static_cast<std::int64_t>(config_.rebalance_offline_seconds) *
                         RateLimit::kUnitsPerSecond) {
  auto add = [this](std::string_view name) {
    for (const auto& slot : accounts_) {
      if (slot->name == name) return;
    }
    auto slot = std::make_unique<AccountSlot>();
    slot->name = std::string(name);
    slot->limit = RateLimit(config_.AccountRateOf(name), config_.burst_ms);
    accounts_.push_back(std::move(slot));
  };
  for (const AccountConfig& account : config.accounts) add(account.name);
  for (const malachite::AccountRate& rate : config_.account_rates) add(rate.account);
  // The shared slot for any other name: an empty name matches no real account. Emulator: the
  // accounts made at run time (POST /-/accounts) share it too, so their per-account target is
  // one budget for all of them; a slot each would make Slot() scan 10,000 names per request.
  auto other = std::make_unique<AccountSlot>();
  other->limit = RateLimit(config_.account_rate, config_.burst_ms);
  accounts_.push_back(std::move(other));
}

Throttle::AccountSlot& Throttle::SlotOf(std::string_view account) {
  // A handful of accounts: a linear scan beats hashing.
  for (std::size_t i = 0; i + 1 < accounts_.size(); ++i) {
    if (accounts_[i]->name == account) return *accounts_[i];
  }
  return *accounts_.back();
}

std::uint64_t Throttle::AccountRate(std::string_view account) const {
  return config_.AccountRateOf(account);
}

ThrottleVerdict Throttle::Admit(const PartitionRef& ref, std::uint64_t entities) {
  const DateTime now = clock_.Now();
  const std::int64_t units = RateLimit::Units(now);
  AccountSlot& account = SlotOf(ref.account);
  if (config_.enabled && !account.bucket.TryTake(account.limit, units, entities)) {
    return ThrottleVerdict::kAccountBusy;
  }
  if (!ref.partition_key) return ThrottleVerdict::kAdmitted;
  const ThrottleVerdict verdict = AdmitPartition(ref, entities, now);
  if (verdict != ThrottleVerdict::kAdmitted && config_.enabled) {
    account.bucket.Refund(account.limit, entities);
  }
  return verdict;
}

ThrottleVerdict Throttle::AdmitPartition(const PartitionRef& ref, std::uint64_t entities,
                                         DateTime now) {
  const std::int64_t units = RateLimit::Units(now);
  return partitions_.With(PartitionName{ref.account, ref.table, *ref.partition_key}, units,
                          [&](PartitionState& state) {
                            if (config_.enabled) {
                              // Emulator: spec §12.2 — while "rebalancing", every request of the
                              // partition is 503.
                              if (state.offline_until > units) {
                                ++state.throttled;
                                return ThrottleVerdict::kPartitionOffline;
                              }
                              if (!state.bucket.TryTake(partition_limit_, units, entities)) {
                                ++state.throttled;
                                NoteRefusal(ref, state, units);
                                return ThrottleVerdict::kPartitionBusy;
                              }
                            }
                            state.window.Add(now, entities);
                            return ThrottleVerdict::kAdmitted;
                          });
}

void Throttle::NoteRefusal(const PartitionRef& ref, PartitionState& state, std::int64_t now) {
  if (rebalance_after_ == 0) return;
  if (state.hot_since == 0 || now - state.last_refused > kHotGap) state.hot_since = now;
  state.last_refused = now;
  if (now - state.hot_since < rebalance_after_) return;
  state.offline_until = now + rebalance_offline_;
  state.hot_since = 0;
  rebalances_.fetch_add(1, std::memory_order_relaxed);
  spdlog::info(
      "rebalancing emulation: partition {}/{}/'{}' offline for {} s after {} s over its "
      "target",
      ref.account, ref.table, *ref.partition_key, config_.rebalance_offline_seconds,
      config_.rebalance_after_seconds);
}

void Throttle::Charge(const PartitionRef& ref, std::uint64_t entities) {
  if (entities == 0) return;
  const DateTime now = clock_.Now();
  const std::int64_t units = RateLimit::Units(now);
  AccountSlot& account = SlotOf(ref.account);
  if (config_.enabled) account.bucket.Charge(account.limit, units, entities);
  if (!ref.partition_key) return;
  partitions_.With(PartitionName{ref.account, ref.table, *ref.partition_key}, units,
                   [&](PartitionState& state) {
                     if (config_.enabled) state.bucket.Charge(partition_limit_, units, entities);
                     state.window.Add(now, entities);
                   });
}

std::vector<PartitionReport> Throttle::Hottest(std::size_t limit) const {
  const DateTime now = clock_.Now();
  const std::int64_t units = RateLimit::Units(now);
  auto hotter = [](const PartitionReport& a, const PartitionReport& b) {
    if (a.rate != b.rate) return a.rate > b.rate;
    if (a.peak != b.peak) return a.peak > b.peak;
    return a.throttled > b.throttled;
  };
  // The top `limit` so far as a heap whose front is the least hot of them. A partition's names
  // are copied only when it enters it: the insight sampler asks every second, and a long-lived
  // server tracks tens of thousands of partitions, most long idle (churn_bench: copying every
  // one's names was a fifth of the server's CPU).
  std::vector<PartitionReport> top;
  top.reserve(limit);
  PartitionReport candidate;
  partitions_.ForEach([&](const PartitionName& name, const PartitionState& state) {
    if (limit == 0 || (state.window.total() == 0 && state.throttled == 0)) return;
    candidate.rate = state.window.Rate(now);
    candidate.peak = state.window.Peak();
    candidate.throttled = state.throttled;
    if (top.size() == limit && !hotter(candidate, top.front())) return;
    candidate.account.assign(name.account);
    candidate.table.assign(name.table);
    candidate.partition_key.assign(name.partition_key);
    candidate.total = state.window.total();
    candidate.offline = state.offline_until > units;
    if (top.size() == limit) {
      std::pop_heap(top.begin(), top.end(), hotter);
      top.back() = std::move(candidate);
    } else {
      top.push_back(std::move(candidate));
    }
    std::push_heap(top.begin(), top.end(), hotter);
    candidate = PartitionReport{};
  });
  // The heap's order (hotter as "less") ends up hottest first.
  std::sort_heap(top.begin(), top.end(), hotter);
  return top;
}

}  // namespace malachite::server
