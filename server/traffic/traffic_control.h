// What the request pipeline asks once a request is authenticated and decoded, before any of it
// runs (ARCHITECTURE.md, "The order of a request": ... authenticate -> decode -> admit -> run):
// fault rules, then the throttle; and what it records afterwards (the rest of a query's scan,
// metrics). One per Service; the /-/ endpoints read and change it at runtime.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/error.h"
#include "config/server_config.h"
#include "server/http/route.h"
#include "server/traffic/fault_injector.h"
#include "server/traffic/metrics.h"
#include "server/traffic/request_charge.h"
#include "server/traffic/throttle.h"

namespace malachite::server {

// The gate's answer for one request.
struct GateResult {
  // Set when the request must not run: answer this error instead (503 ServerBusy from the
  // throttle or a rule, 500 OperationTimedOut from a rule). Nothing of the request is applied.
  std::optional<Error> refusal;
  // A Delay rule fired: the session holds the answer back this long.
  std::chrono::milliseconds delay{0};
  // A DropConnection rule fired: the session closes the connection without answering (with
  // `refusal` set, so nothing is applied).
  bool drop = false;
};

class TrafficControl {
 public:
  // Limits and fault rules from `config` (rules that fail to load are logged and skipped: call
  // LoadRules first to refuse a bad configuration). `clock` must outlive this.
  TrafficControl(const ServerConfig& config, const Clock& clock);

  // The fault rules of config.throttle: every --fault / MALACHITE_FAULTS text, then the array in
  // --faults-file. Errors: kInvalidInput naming the rule's source and the problem.
  static Result<std::vector<FaultRule>> LoadRules(const ThrottleConfig& config);

  // Decides whether the request routed as `route`, decoded into `charge` (null when its
  // decoding failed), may run: applies fault rules, then counts its entities (spec §12.1)
  // against its partition and account. REQUIRES: nothing of the request was read or written yet.
  GateResult Admit(const Route& route, const RequestCharge* charge);

  // After an admitted query ran: counts what it scanned (metrics) and charges the throttle the
  // entities scanned beyond those Admit counted (the limiters may go into debt; the next
  // requests wait it out). `charge` is what Admit was given.
  void ChargeScan(const Route& route, const RequestCharge* charge, const QueryStats& query);

  // One answered request, for /-/metrics.
  void Record(std::optional<Operation> op, int status, std::chrono::nanoseconds latency) {
    metrics_.RecordRequest(op, status, latency);
  }

  // Startup banner lines: the limits in force, rebalancing and fault rules.
  std::vector<std::string> Describe() const;

  Throttle& throttle() { return throttle_; }
  const Throttle& throttle() const { return throttle_; }
  FaultInjector& faults() { return faults_; }
  const Metrics& metrics() const { return metrics_; }

 private:
  std::optional<Error> ApplyFault(const FaultAction& action, GateResult& result);

  Throttle throttle_;
  FaultInjector faults_;
  Metrics metrics_;
};

}  // namespace malachite::server
