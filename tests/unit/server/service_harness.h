// Shared steps of the tests that drive server::Service directly (service, SAS, throttle tests):
// signing a request as the JS SDK does and running one exchange to completion.
#pragma once

#include "common/encoding.h"
#include "config/server_config.h"
#include "server/auth/shared_key.h"
#include "server/http/route.h"
#include "server/pipeline/service.h"
#include "storage/store.h"

namespace malachite::server::testing {

// Adds `Authorization: SharedKeyLite devstoreaccount1:<sig>` for `request` routed as `route`
// (the request must already carry its x-ms-date).
inline void SignSharedKeyLite(Request& request, const Route& route) {
  const std::string key = *Base64Decode(kDevAccountKey);
  request.headers.push_back(
      {"Authorization", "SharedKeyLite devstoreaccount1:" +
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

}  // namespace malachite::server::testing
