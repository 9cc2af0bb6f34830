// One request/response exchange: what the session hands the pipeline (service.h) and what the
// pipeline's steps and logs (failure_log.h, access_log.h) read back, in a header of its own so
// that they need not include the Service.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "common/error.h"
#include "server/http/message.h"
#include "server/http/route.h"
#include "server/ops/handler.h"
#include "storage/store.h"

namespace malachite::server {

// One request/response exchange. The session keeps one per connection and reuses it (buffers
// keep their capacity). Not movable: `route` and `request` must stay where they are while a
// write is in flight, because the handler's `finish` may refer to them.
struct Exchange {
  Request request;    // filled in by the session before Service::Handle
  Response response;  // the answer once Handle (without a write) or Complete returned
  // Set by Handle when the request needs a durable write: submit it to Store::Submit, then call
  // Service::Complete with the result. Empty otherwise.
  storage::WriteFn write;

  // Pipeline state, kept between Handle and Complete.
  Route route;
  bool routed = false;
  std::function<Result<void>(Response&, Result<void>)> finish;
  std::string request_id;
  std::string version;
  // What the handler reported (Outcome): what a query read and returned (throttling, logs, the
  // insight room), its partition and what it wrote (the insight room).
  std::optional<QueryStats> query_stats;
  std::optional<PartitionCharge> partition_charge;
  std::optional<WriteStats> write_stats;
  // The Azure error answered, if any (errors by code in the traffic history).
  std::optional<ErrorCode> error;
  // The Error that refused the request when it has a detail (the answered one, or the error
  // part of a $batch that refused its changeset inside a 202): the design advisor reads the
  // rule it names (common/refusal.h).
  std::optional<Error> refusal;
  // A Table API call the explorer makes for a client the admin surface admitted (session:
  // HandleAdminRequest said kTableApi): it runs as the account owner, gets the query plan
  // header and x-malachite-elapsed-us, and is not throttled, faulted, metered or billed — it
  // is the emulator's own traffic, not the application's.
  bool explorer = false;
  // Set by a fault rule (traffic_control.h): the session holds the answer back `fault_delay`,
  // or closes the connection without answering when `drop_connection`.
  std::chrono::milliseconds fault_delay{0};
  bool drop_connection = false;
  // Set when throttling or a fault rule refused the request: an answer chosen on purpose, not a
  // failure of the server (failure_log.h leaves it out).
  bool emulated_failure = false;
  // When Handle began (request latency metrics).
  std::chrono::steady_clock::time_point started{};

  Exchange() = default;
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  // Clears everything for the next request of the connection.
  void Reset();
};

}  // namespace malachite::server
