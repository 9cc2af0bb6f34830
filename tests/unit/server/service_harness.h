// Shared steps of the tests that drive server::Service directly (service, SAS, throttle, bill,
// explorer tests): a Service over a real store, signing a request as the JS SDK does and running
// one exchange to completion.
#pragma once

#include "common/encoding.h"
#include "config/server_config.h"
#include "server/auth/shared_key.h"
#include "server/http/route.h"
#include "server/pipeline/service.h"
#include "storage/store.h"
#include "tests/unit/storage/temp_dir.h"

namespace malachite::server::testing {

// Adds `Authorization: SharedKeyLite devstoreaccount1:<sig>` for `request` routed as `route`
// (the request must already carry its x-ms-date).
inline void SignSharedKeyLite(Request& request, const Route& route) {
  const std::string key = *Base64Decode(kDevAccountKey);
  request.headers.push_back(
      {"Authorization",
       "SharedKeyLite devstoreaccount1:" +
           ComputeSignature(key, SharedKeyLiteStringToSign(request, route)).value()});
}

// Runs `exchange` through the pipeline; a write goes through the store synchronously, as the
// session would await it.
inline void RunExchange(Service& service, storage::Store& store, Exchange& exchange) {
  service.Handle(exchange);
  if (exchange.write) {
    auto written = store.Write(std::move(exchange.write));
    exchange.write = nullptr;
    service.Complete(exchange, std::move(written));
  }
}

// A Service over a real store in a fresh temp directory (removed at the end) on a ManualClock
// starting at `start`, with devstoreaccount1 added to `config`'s accounts.
class ServiceHost {
 public:
  explicit ServiceHost(DateTime start, ServerConfig config = {}) : clock_(start) {
    storage::StoreOptions options;
    options.data_dir = dir_.path();
    options.durability = Durability::kNone;
    options.map_size_bytes = 1ull << 30;
    store_ = std::move(*storage::Store::Open(options, clock_));
    config.accounts.push_back({std::string(kDevAccountName), std::string(kDevAccountKey), {}});
    service_ = std::make_unique<Service>(config, *store_, clock_);
  }
  ~ServiceHost() {
    service_.reset();
    store_.reset();
  }

  Service& service() { return *service_; }
  storage::Store& store() { return *store_; }
  ManualClock& clock() { return clock_; }

 private:
  storage::testing::TempDir dir_;
  ManualClock clock_;
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<Service> service_;
};

}  // namespace malachite::server::testing
