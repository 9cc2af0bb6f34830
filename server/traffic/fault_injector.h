// Fault injection for testing retry policies: rules that make matching requests fail
// the way the real service fails under load (503 ServerBusy, 500 OperationTimedOut), answer late,
// or lose their connection. Rules come from the configuration at startup and are changed at
// runtime through /-/faults.
//
// A rule is one JSON object (every member optional except "fault"):
//   {"fault": "ServerBusy" | "OperationTimedOut" | "Delay" | "DropConnection",
//    "delay_ms": 200,          // Delay only: how long the answer is held back (1..600000)
//    "probability": 0.25,      // fire on this share of matching requests (0..1, default 1)
//    "every": 3,               // or: fire on every 3rd matching request (3rd, 6th, ...)
//    "after_ms": 0,            // time window, from when the rule was added: start after ...
//    "for_ms": 5000,           //   ... and stay active for ... (default: forever)
//    "count": 10,              // fire at most this many times (default: no limit)
//    "account": "devstoreaccount1", "table": "orders", "partition": "p1",  // scope
//    "operation": "InsertEntity"}                                          // Azure op name
// A request matches when every scope member given equals its account, table (case-insensitive),
// PartitionKey and operation. Listings add "id", "matched" and "fired".
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "common/error.h"

namespace malachite::server {

enum class FaultKind : std::uint8_t { kServerBusy, kOperationTimedOut, kDelay, kDropConnection };

// "ServerBusy", "OperationTimedOut", "Delay", "DropConnection".
std::string_view FaultKindName(FaultKind kind);

struct FaultRule {
  std::uint64_t id = 0;  // assigned by Add
  FaultKind fault = FaultKind::kServerBusy;
  std::uint32_t delay_ms = 0;
  double probability = 1.0;
  std::uint64_t every = 0;                           // 0: not a schedule
  std::uint64_t after_ms = 0;                        // window start, from `added`
  std::uint64_t for_ms = 0;                          // window length; 0: open-ended
  std::uint64_t count = 0;                           // most firings; 0: no limit
  std::string account, table, partition, operation;  // empty: any
  // Runtime state.
  DateTime added;
  std::uint64_t matched = 0;
  std::uint64_t fired = 0;
};

// Where a request works, for matching scopes. An unset partition matches only rules without one.
struct FaultScope {
  std::string_view account;
  std::string_view table;
  std::optional<std::string_view> partition_key;
  std::string_view operation;
};

// What a fired rule does to the request.
struct FaultAction {
  FaultKind fault = FaultKind::kServerBusy;
  std::chrono::milliseconds delay{0};
  std::uint64_t rule_id = 0;
};

class FaultInjector {
 public:
  // `clock` (for time windows) must outlive this.
  explicit FaultInjector(const Clock& clock) : clock_(clock) {}

  // Parses one rule object or an array of them (format above). Errors: kInvalidInput with a
  // message naming the member (unknown member, bad value, missing "fault", "every" with
  // "probability", "delay_ms" on a fault other than Delay or missing on Delay).
  static Result<std::vector<FaultRule>> Parse(std::string_view json);

  // Adds a rule (its id and `added` time are set here) and returns the stored rule.
  FaultRule Add(FaultRule rule);
  // Removes rule `id`; false when there is none.
  bool Remove(std::uint64_t id);
  void Clear();
  // Every rule as a JSON array (ids, counters included), in the order they were added.
  std::string ListJson() const;
  // A copy of the rules (tests, startup banner).
  std::vector<FaultRule> Rules() const;

  // The first rule that matches `scope` and fires now, with its counters updated; nullopt when
  // none. Costs one atomic load when there are no rules. Thread-safe.
  std::optional<FaultAction> Match(const FaultScope& scope);

 private:
  const Clock& clock_;
  mutable std::mutex mutex_;
  std::vector<FaultRule> rules_;
  std::uint64_t next_id_ = 1;
  std::atomic<std::size_t> rule_count_{0};
};

// One rule as a JSON object (the listing's format).
std::string FaultRuleJson(const FaultRule& rule);

}  // namespace malachite::server
