// The request pipeline (ARCHITECTURE.md: "a request travels one way"): request id -> route -> auth
// -> negotiation -> Dispatch -> error rendering -> common response headers. Synchronous: the
// session owns the socket and, for writes, awaits the store between Handle and Complete.
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

 private:
  Result<void> Run(Exchange& exchange) const;
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
