// The scalability targets (spec §12.1): entities per second per partition (account, table,
// PartitionKey) and per account, each a GCRA limiter (rate_limiter.h) with a burst allowance,
// plus the rebalancing emulation (a partition throttled for long goes offline for a while). The
// pipeline asks Admit before a request does any work and Charges a query's scan afterwards.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "config/server_config.h"
#include "server/traffic/partition_table.h"
#include "server/traffic/rate_limiter.h"

namespace malachite::server {

// Where a request's entities count. Without a partition key only the account is charged (table
// operations, queries over several partitions).
struct PartitionRef {
  std::string_view account;
  std::string_view table;
  std::optional<std::string_view> partition_key;
};

enum class ThrottleVerdict : std::uint8_t {
  kAdmitted,
  kPartitionBusy,     // the partition is over its rate
  kAccountBusy,       // the account is over its rate
  kPartitionOffline,  // the partition is being "rebalanced" (rebalancing emulation)
};

// "admitted", "partition", "account", "offline" (metrics labels).
std::string_view ThrottleVerdictName(ThrottleVerdict verdict);

// One line of the hot-partition report.
struct PartitionReport {
  std::string account;
  std::string table;  // lowercase
  std::string partition_key;
  double rate = 0;              // entities/s over the last second
  std::uint64_t peak = 0;       // entities in the busiest whole second seen
  std::uint64_t total = 0;      // entities counted while tracked
  std::uint64_t throttled = 0;  // requests refused
  bool offline = false;
};

class Throttle {
 public:
  // Limits from config.throttle; one account limiter per configured account (and per account
  // named in an override), one shared by any other account name. `clock` must outlive this.
  Throttle(const ServerConfig& config, const Clock& clock);

  bool enabled() const { return config_.enabled; }
  const ThrottleConfig& config() const { return config_; }
  const RateLimit& partition_limit() const { return partition_limit_; }
  std::uint64_t AccountRate(std::string_view account) const;

  // Admits `entities` (>= 1) for `ref` at the clock's now: charges the account and the partition
  // and returns kAdmitted, or charges nothing and says which limit refused. With throttling off
  // it always admits, but the partition's rate is still counted for the report. Thread-safe.
  ThrottleVerdict Admit(const PartitionRef& ref, std::uint64_t entities);

  // Charges `entities` after the fact (the rest of a query's scan): the limiters may go into
  // debt, and refuse the next requests until time has paid it off. Thread-safe.
  void Charge(const PartitionRef& ref, std::uint64_t entities);

  // Forgets the partitions of `account`, once it is deleted: Hottest no longer names them. The
  // account limiters, fixed at construction, stay. Thread-safe.
  void ForgetAccount(std::string_view account) { partitions_.ForgetAccount(account); }
  // Forgets the partitions of `table` of `account`, once it is deleted (a long-lived server
  // that creates and deletes tables would otherwise keep tens of thousands, which every Hottest
  // walks). Thread-safe; O(tracked partitions).
  void ForgetTable(std::string_view account, std::string_view table) {
    partitions_.ForgetTable(account, table);
  }

  // The `limit` partitions with the highest recent rate (then the highest peak), hottest first.
  std::vector<PartitionReport> Hottest(std::size_t limit) const;
  std::size_t tracked_partitions() const { return partitions_.size(); }
  // Partitions taken offline by the rebalancing emulation since startup.
  std::uint64_t rebalances() const { return rebalances_.load(std::memory_order_relaxed); }

 private:
  struct AccountSlot {
    std::string name;
    RateLimit limit;
    AtomicGcra bucket;
  };
  AccountSlot& SlotOf(std::string_view account);
  ThrottleVerdict AdmitPartition(const PartitionRef& ref, std::uint64_t entities, DateTime now);
  // The rebalancing emulation's bookkeeping for a refused request.
  void NoteRefusal(const PartitionRef& ref, PartitionState& state, std::int64_t now);

  ThrottleConfig config_;
  const Clock& clock_;
  RateLimit partition_limit_;
  // Fixed after construction (lookups need no lock); the last slot is for any other account.
  std::vector<std::unique_ptr<AccountSlot>> accounts_;
  PartitionTable partitions_;
  std::int64_t rebalance_after_ = 0;    // limiter time units; 0: emulation off
  std::int64_t rebalance_offline_ = 0;  // limiter time units
  std::atomic<std::uint64_t> rebalances_{0};
};

}  // namespace malachite::server
