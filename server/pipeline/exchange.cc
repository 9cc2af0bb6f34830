#include "server/pipeline/exchange.h"

namespace malachite::server {

void Exchange::Reset() {
  request.method.clear();
  request.target.clear();
  request.headers.clear();
  request.body.clear();
  response.status = 200;
  response.headers.clear();
  response.body.clear();
  write = nullptr;
  route.query.items.clear();
  route.table.clear();
  route.partition_key.clear();
  route.row_key.clear();
  routed = false;
  finish = nullptr;
  request_id.clear();
  version.clear();
  query_stats.reset();
  partition_charge.reset();
  write_stats.reset();
  error.reset();
  refusal.reset();
  explorer = false;
  fault_delay = std::chrono::milliseconds(0);
  drop_connection = false;
  emulated_failure = false;
  started = {};
}

}  // namespace malachite::server
