#include "server/traffic/traffic_control.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace malachite::server {
namespace {

// The partition a request works in: named by its route (point operations), else found by its
// handler (Insert's body, a $batch changeset, a query planned inside one partition).
std::optional<std::string_view> PartitionOf(const Route& route, const RequestCharge* charge) {
  if (charge != nullptr && charge->partition != nullptr) {
    return std::string_view(charge->partition->partition_key);
  }
  if (TraitsOf(route.op).route_names_partition) return std::string_view(route.partition_key);
  return std::nullopt;
}

// Where the request's entities count: its account, its table (a $batch's from its operations)
// and its partition, if one. The views point into `route` and `charge`.
PartitionRef RefOf(const Route& route, const RequestCharge* charge) {
  const PartitionCharge* partition = charge != nullptr ? charge->partition : nullptr;
  const std::string_view table = partition != nullptr && !partition->table.empty()
                                     ? std::string_view(partition->table)
                                     : std::string_view(route.table);
  return PartitionRef{route.account, table, PartitionOf(route, charge)};
}

// The entities a request is admitted for (at least 1).
std::uint64_t EntitiesOf(const RequestCharge* charge) {
  const PartitionCharge* partition = charge != nullptr ? charge->partition : nullptr;
  return std::max<std::uint64_t>(partition != nullptr ? partition->entities : 1, 1);
}

Error Busy(ThrottleVerdict verdict) {
  // Azure: spec §12.2 — the account-limit variant names the limit; a partition server's refusal
  // is the generic message.
  if (verdict == ThrottleVerdict::kAccountBusy) {
    return Error{ErrorCode::kServerBusy, "Operations per second is over the account limit.", ""};
  }
  return Error{ErrorCode::kServerBusy, {}, std::string(ThrottleVerdictName(verdict))};
}

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(ErrorCode::kInvalidInput, "cannot read --faults-file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TrafficControl::TrafficControl(const ServerConfig& config, const Clock& clock)
    : throttle_(config, clock), faults_(clock) {
  auto rules = LoadRules(config.throttle);
  if (!rules) {
    spdlog::warn("fault rules not loaded: {}", rules.error().UserMessage());
    return;
  }
  for (FaultRule& rule : *rules) faults_.Add(std::move(rule));
}

Result<std::vector<FaultRule>> TrafficControl::LoadRules(const ThrottleConfig& config) {
  std::vector<FaultRule> all;
  auto add = [&all](std::string_view source, std::string_view json) -> Result<void> {
    auto rules = FaultInjector::Parse(json);
    if (!rules) {
      return Fail(ErrorCode::kInvalidInput,
                  std::string(source) + ": " + std::string(rules.error().UserMessage()));
    }
    for (FaultRule& rule : *rules) all.push_back(std::move(rule));
    return {};
  };
  for (const std::string& text : config.fault_rules) {
    if (auto ok = add("--fault/MALACHITE_FAULTS", text); !ok) return tl::unexpected(ok.error());
  }
  if (!config.faults_file.empty()) {
    auto text = ReadFile(config.faults_file);
    if (!text) return tl::unexpected(text.error());
    if (auto ok = add(config.faults_file, *text); !ok) return tl::unexpected(ok.error());
  }
  return all;
}

GateResult TrafficControl::Admit(const Route& route, const RequestCharge* charge) {
  GateResult result;
  const PartitionRef ref = RefOf(route, charge);
  const FaultScope scope{ref.account, ref.table, ref.partition_key, OperationName(route.op)};
  if (auto action = faults_.Match(scope)) {
    metrics_.AddFault(action->fault);
    if (auto refusal = ApplyFault(*action, result)) {
      result.refusal = std::move(refusal);
      return result;
    }
  }
  // Azure: spec §12.1 — 1 entity per request, N for a $batch of N; a query is admitted for 1 and
  // charged the rest of what it scanned once it ran (ChargeScan).
  const std::uint64_t entities = EntitiesOf(charge);
  const ThrottleVerdict verdict = throttle_.Admit(ref, entities);
  if (verdict != ThrottleVerdict::kAdmitted) {
    metrics_.AddThrottled(verdict);
    result.refusal = Busy(verdict);
    return result;
  }
  if (charge != nullptr && charge->writes && TraitsOf(route.op).writes_entities) {
    metrics_.AddEntitiesWritten(entities);
  }
  return result;
}

void TrafficControl::ChargeScan(const Route& route, const RequestCharge* charge,
                                const QueryStats& query) {
  metrics_.AddEntitiesScanned(query.scanned);
  const std::uint64_t entities = EntitiesOf(charge);
  if (query.scanned > entities) throttle_.Charge(RefOf(route, charge), query.scanned - entities);
}

std::optional<Error> TrafficControl::ApplyFault(const FaultAction& action, GateResult& result) {
  switch (action.fault) {
    case FaultKind::kServerBusy:
      return Error{ErrorCode::kServerBusy, {}, "fault rule " + std::to_string(action.rule_id)};
    case FaultKind::kOperationTimedOut:
      return Error{
          ErrorCode::kOperationTimedOut, {}, "fault rule " + std::to_string(action.rule_id)};
    case FaultKind::kDelay:
      result.delay = action.delay;
      return std::nullopt;
    case FaultKind::kDropConnection:
      result.drop = true;
      return Error{ErrorCode::kServerBusy, {}, "dropped by fault rule"};
  }
  return std::nullopt;
}

std::vector<std::string> TrafficControl::Describe() const {
  const ThrottleConfig& config = throttle_.config();
  std::vector<std::string> lines;
  if (config.enabled) {
    std::string line =
        fmt::format("throttling on: {} entities/s per partition, {} per account (burst {} ms)",
                    config.partition_rate, config.account_rate, config.burst_ms);
    for (const malachite::AccountRate& rate : config.account_rates) {
      line += fmt::format("; account {}: {}/s", rate.account, rate.rate);
    }
    lines.push_back(line + " — over them requests get 503 ServerBusy (--throttling off)");
  } else {
    lines.push_back("throttling off (rates are still measured: GET /-/partitions)");
  }
  if (config.enabled && config.rebalance_after_seconds > 0) {
    lines.push_back(fmt::format(
        "rebalancing emulation on: a partition throttled for {} s goes offline for {} s",
        config.rebalance_after_seconds, config.rebalance_offline_seconds));
  }
  const auto rules = faults_.Rules();
  for (const FaultRule& rule : rules) lines.push_back("fault rule: " + FaultRuleJson(rule));
  return lines;
}

}  // namespace malachite::server
