// The insight room's one object (one per Service): records what each answered Table API request
// tells (Record, on the request path: striped counters and one sharded table lookup), keeps a
// once-a-second traffic history (the sampler thread), and answers the bill, the capacity and the
// design advisor on demand. The /-/ endpoints (insight_endpoints.h) read and reset it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "config/server_config.h"
#include "server/insight/advisor.h"
#include "server/insight/bill.h"
#include "server/insight/capacity.h"
#include "server/insight/history.h"
#include "server/insight/request_counters.h"
#include "server/insight/request_facts.h"
#include "server/insight/usage_table.h"
#include "server/traffic/traffic_control.h"
#include "storage/store.h"

namespace malachite::server {

// The server's accounts as the insight sees them: the AccountDirectory (server/auth), which this
// room does not link, behind two functions. Both thread-safe.
struct AccountNames {
  std::function<bool(std::string_view)> known;     // an account the server serves now
  std::function<std::vector<std::string>()> list;  // configured first, then made at run time
};

class Insight {
 public:
  // `store`, `clock` and `traffic` must outlive this. Without `names`, the configured accounts.
  Insight(const ServerConfig& config, storage::Store& store, const Clock& clock,
          TrafficControl& traffic, AccountNames names = {});
  ~Insight();  // stops the sampler

  Insight(const Insight&) = delete;
  Insight& operator=(const Insight&) = delete;

  // One answered request of a client (not the explorer's own). Thread-safe; no allocation once
  // its table is known (table_usage.h says when an observation allocates).
  void Record(const RequestFacts& facts);

  // Starts the thread that calls Sample once a second (the server does; tests call Sample).
  void StartSampler();
  // Appends one second to the traffic history.
  void Sample();

  // The accounts: the configured ones in configuration order, then those made at run time.
  std::vector<std::string> accounts() const { return names_.list(); }
  // True for an account the server serves now.
  bool HasAccount(std::string_view account) const { return names_.known(account); }

  // The advisor's findings and summary as JSON (advisor.h).
  std::vector<Finding> Findings() const;
  std::string AdvisorJson() const;
  void ResetAdvisor() { usage_.ResetObservations(); }

  // The bill as JSON (bill.h), measuring each account's capacity unless measured less than
  // `max_age` ago (each measurement bounded by `budget`).
  std::string BillJson(std::chrono::seconds max_age, std::chrono::milliseconds budget);
  void AppendBillMetrics(std::string& out, std::chrono::seconds max_age,
                         std::chrono::milliseconds budget);
  // Zeroes the billed transactions; the window restarts now.
  void ResetBill();
  PriceTable prices() const;
  void SetPrices(PriceTable prices);

  // Measures `account`'s capacity (only `table` when given; not cached then), or returns the
  // last measurement of the whole account when younger than `max_age`. Errors: those of
  // MeasureCapacity.
  Result<CapacityReport> Capacity(std::string_view account, std::optional<std::string_view> table,
                                  std::chrono::seconds max_age, std::chrono::milliseconds budget);

  // The traffic history after `since` (history.h).
  std::string TrafficJson(DateTime since) const;

  // Forgets what was kept about `account` once it is deleted (after its deletion committed and
  // HasAccount turned false): its usage (the bill and the advisor), its last capacity
  // measurement and its partitions in the traffic history; no endpoint names it afterwards
  // (the throttle's partitions are Throttle::ForgetAccount's). Thread-safe; takes the locks the
  // request path takes, one at a time, for O(tables + history) work.
  void ForgetAccount(std::string_view account);

  const UsageTable& usage() const { return usage_; }

 private:
  BillInput MakeBill(std::chrono::seconds max_age, std::chrono::milliseconds budget);
  AdvisorInput MakeAdvisorInput() const;

  AccountNames names_;
  storage::Store& store_;
  const Clock& clock_;
  TrafficControl& traffic_;
  RequestCounters counters_;
  UsageTable usage_;
  TrafficHistory history_;

  mutable std::mutex mutex_;  // guards what follows
  PriceTable prices_;
  std::chrono::steady_clock::time_point bill_since_;
  struct CachedCapacity {
    CapacityReport report;
    std::chrono::steady_clock::time_point at;
  };
  std::map<std::string, CachedCapacity, std::less<>> capacity_;

  std::mutex sampler_mutex_;
  std::condition_variable_any sampler_wake_;
  std::jthread sampler_;  // last: stopped and joined first
};

}  // namespace malachite::server
