#include "server/insight/insight.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace malachite::server {
namespace {

// The partitions the history keeps per second, and those the advisor looks at.
constexpr std::size_t kChartPartitions = 8;
constexpr std::size_t kAdvisorPartitions = 50;

}  // namespace

Insight::Insight(const ServerConfig& config, storage::Store& store, const Clock& clock,
                 TrafficControl& traffic, AccountNames names)
    : names_(std::move(names)),
      store_(store),
      clock_(clock),
      traffic_(traffic),
      prices_(DefaultPrices()),
      bill_since_(std::chrono::steady_clock::now()) {
  if (!names_.known || !names_.list) {
    std::vector<std::string> configured;
    for (const AccountConfig& account : config.accounts) configured.push_back(account.name);
    names_.known = [configured](std::string_view name) {
      return std::find(configured.begin(), configured.end(), name) != configured.end();
    };
    names_.list = [configured] { return configured; };
  }
}

Insight::~Insight() {
  if (sampler_.joinable()) {
    sampler_.request_stop();
    sampler_wake_.notify_all();
  }
}

void Insight::Record(const RequestFacts& facts) {
  counters_.Add(facts.op, facts.error);
  // Only the server's accounts are kept: any other name is refused by authentication, and
  // keeping it would let arbitrary names fill the table.
  if (!facts.op || !HasAccount(facts.account)) return;
  const bool billable = IsBillable(facts);
  usage_.With(facts.account, facts.table,
              [&facts, billable](TableUsage& usage) { Observe(usage, facts, billable); });
}

void Insight::StartSampler() {
  sampler_ = std::jthread([this](std::stop_token stop) {
    std::unique_lock<std::mutex> lock(sampler_mutex_);
    while (!stop.stop_requested()) {
      lock.unlock();
      Sample();
      lock.lock();
      sampler_wake_.wait_for(lock, stop, std::chrono::seconds(1), [] { return false; });
    }
  });
}

void Insight::Sample() {
  TrafficTotals totals;
  totals.counters = counters_.Sum();
  totals.throttled = traffic_.metrics().ThrottledTotal();
  totals.faults = traffic_.metrics().FaultsTotal();
  std::vector<PartitionReport> partitions = traffic_.throttle().Hottest(kChartPartitions);
  std::erase_if(partitions, [](const PartitionReport& p) { return p.rate <= 0; });
  history_.Add(clock_.Now(), totals, std::move(partitions));
}

AdvisorInput Insight::MakeAdvisorInput() const {
  AdvisorInput input;
  input.tables = usage_.Snapshot();
  input.partitions = traffic_.throttle().Hottest(kAdvisorPartitions);
  input.partition_target = traffic_.throttle().config().partition_rate;
  return input;
}

std::vector<Finding> Insight::Findings() const { return Advise(MakeAdvisorInput()); }

std::string Insight::AdvisorJson() const {
  const AdvisorInput input = MakeAdvisorInput();
  return FindingsJson(Advise(input), input);
}

BillInput Insight::MakeBill(std::chrono::seconds max_age, std::chrono::milliseconds budget) {
  BillInput bill;
  bill.accounts = accounts();
  bill.usage = usage_.Snapshot();
  for (const std::string& account : bill.accounts) {
    auto report = Capacity(account, std::nullopt, max_age, budget);
    if (report) {
      bill.capacity.push_back(std::move(*report));
    } else {
      spdlog::warn("capacity of {} not measured: {}", account, report.error().UserMessage());
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  bill.prices = prices_;
  bill.window_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - bill_since_).count();
  return bill;
}

std::string Insight::BillJson(std::chrono::seconds max_age, std::chrono::milliseconds budget) {
  return server::BillJson(MakeBill(max_age, budget));
}

void Insight::AppendBillMetrics(std::string& out, std::chrono::seconds max_age,
                                std::chrono::milliseconds budget) {
  server::AppendBillMetrics(MakeBill(max_age, budget), out);
}

void Insight::ResetBill() {
  usage_.ResetBill();
  std::lock_guard<std::mutex> lock(mutex_);
  bill_since_ = std::chrono::steady_clock::now();
}

PriceTable Insight::prices() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return prices_;
}

void Insight::SetPrices(PriceTable prices) {
  std::lock_guard<std::mutex> lock(mutex_);
  prices_ = std::move(prices);
}

Result<CapacityReport> Insight::Capacity(std::string_view account,
                                         std::optional<std::string_view> table,
                                         std::chrono::seconds max_age,
                                         std::chrono::milliseconds budget) {
  const auto now = std::chrono::steady_clock::now();
  if (!table) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = capacity_.find(account);
    if (it != capacity_.end() && now - it->second.at < max_age) return it->second.report;
  }
  auto report = MeasureCapacity(store_, account, table, budget, clock_.Now());
  if (!report || table) return report;
  std::lock_guard<std::mutex> lock(mutex_);
  // Checked under the lock ForgetAccount erases under: an account deleted while it was measured
  // is either still known here (and its entry erased after) or not cached at all.
  if (HasAccount(account)) capacity_[std::string(account)] = CachedCapacity{*report, now};
  return report;
}

void Insight::ForgetAccount(std::string_view account) {
  usage_.ForgetAccount(account);
  history_.ForgetAccount(account);
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = capacity_.find(account); it != capacity_.end()) capacity_.erase(it);
}

std::string Insight::TrafficJson(DateTime since) const {
  return history_.Json(since, traffic_.throttle().config().partition_rate);
}

}  // namespace malachite::server
