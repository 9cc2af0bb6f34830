// The request pipeline (ARCHITECTURE.md, "The order of a request"): request id -> version ->
// route -> limits -> authenticate -> authorize -> negotiate -> decode (Dispatch) -> admit (faults,
// throttle) -> read, or hand over the write -> charge the scan -> error rendering -> common
// response headers. Synchronous: the session owns the socket and, for writes, awaits the store
// between Handle and Complete.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "common/clock.h"
#include "config/server_config.h"
#include "server/auth/authenticator.h"
#include "server/http/host_style.h"
#include "server/http/message.h"
#include "server/http/route.h"
#include "server/insight/insight.h"
#include "server/ops/handler.h"
#include "server/pipeline/exchange.h"
#include "server/traffic/traffic_control.h"
#include "storage/store.h"

namespace malachite::server {

class Service {
 public:
  // `store` and `clock` must outlive the Service.
  Service(const ServerConfig& config, storage::Store& store, const Clock& clock);

  // Runs the pipeline for exchange.request. Afterwards either exchange.response is complete, or
  // exchange.write is set and the caller must submit it and then call Complete. Never throws for
  // bad input; every failure becomes an Azure error response.
  void Handle(Exchange& exchange) const;

  // Finishes a write started by Handle: runs the handler's finish step with the store's result
  // and decorates the response. REQUIRES: Handle set exchange.write (now moved out).
  void Complete(Exchange& exchange, Result<void> write_result) const;

  // Renders `error` as the answer to `exchange` (used by the session for failures outside the
  // pipeline, e.g. an exception) with all common headers.
  void Fail(Exchange& exchange, const Error& error) const;

  // Throttling, fault rules and metrics (read and changed at runtime by the /-/ endpoints).
  TrafficControl& traffic() const { return *traffic_; }
  // The bill, the traffic history and the design advisor (the /-/ endpoints, the explorer).
  Insight& insight() const { return *insight_; }
  // The accounts served: the configured ones and those POST /-/accounts makes (changed at run
  // time by server/admin/account_endpoints.h; every request reads the current set).
  AccountDirectory& accounts() const { return *accounts_; }
  // Forgets what the server keeps about `account` outside the store once its deletion committed
  // (DataEndpoints::forget_account): its usage, capacity and traffic history in the insight, its
  // partitions in the throttle. Thread-safe; takes the request path's shard locks one at a time,
  // each for one shard's walk.
  void ForgetAccount(std::string_view account) const;

 private:
  // What authentication found: a shared access signature, a bearer token's roles.
  struct Grant {
    std::shared_ptr<const SasGrant> sas;
    std::optional<RbacActions> rbac;
  };

  // Runs the steps below, in order, until one fails.
  Result<void> Run(Exchange& exchange) const;
  // The x-ms-version the request is processed at (spec §2.1).
  Result<void> PickVersion(Exchange& exchange, DateTime now) const;
  // exchange.route, in place.
  Result<void> RouteExchange(Exchange& exchange) const;
  // The request body limit (spec §9.3; a $batch's is its handler's).
  Result<void> CheckLimits(const Exchange& exchange) const;
  // The credentials (spec §10), into `grant`; nothing for a preflight, --loose or the explorer.
  Result<void> Authenticate(Exchange& exchange, DateTime now, Grant& grant) const;
  // The secondary endpoint's read-only rule (spec §1.1).
  Result<void> Authorize(const Exchange& exchange) const;
  // The handlers' context, with the negotiated metadata level (spec §2.3).
  Result<RequestContext> Context(const Exchange& exchange, const Grant& grant) const;
  // What the decoded request is admitted for (all null/false when its decoding failed).
  static RequestCharge ChargeOf(const Result<Outcome>& outcome);
  // Fault rules and the throttle (spec §12): the refusal when the request must not run.
  Result<void> Admit(Exchange& exchange, const RequestCharge* charge) const;
  // The admitted request's read, if it has one.
  static Result<void> Execute(const RequestContext& ctx, Outcome& outcome);
  // A query's scan beyond what Admit counted, once it ran.
  void ChargeScan(const Exchange& exchange, const RequestCharge& charge,
                  const Outcome& outcome) const;
  // The outcome's answer, reports and write, into the exchange.
  static void Adopt(Exchange& exchange, Outcome&& outcome);
  void RenderFailure(Exchange& exchange, const Error& error) const;
  void Decorate(Exchange& exchange) const;
  void RecordInsight(const Exchange& exchange) const;
  std::string BaseUrl(const Exchange& exchange) const;

  std::string default_host_;  // "host:port" for requests without a Host header
  bool explain_ = false;      // ServerConfig::explain
  bool loose_ = false;        // ServerConfig::loose: no authentication, any x-ms-version
  bool any_version_ = false;  // loose or skip_api_version_check: any x-ms-version
  std::chrono::milliseconds query_budget_;
  std::shared_ptr<AccountDirectory> accounts_;  // (before the members that read it)
  Authenticator authenticator_;
  HostRouting host_routing_;                 // ServerConfig::host_style and accounts_
  std::unique_ptr<TrafficControl> traffic_;  // behind a pointer: Handle is const, it is not
  std::unique_ptr<Insight> insight_;         // (after traffic_: it reads it)
  storage::Store& store_;
  const Clock& clock_;
};

}  // namespace malachite::server
