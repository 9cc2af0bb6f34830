// What the insight room learns about one answered Table API request: the pipeline fills one in
// after the response is final (status known) and hands it to Insight::Record. Views only: they
// live as long as the exchange they come from.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "common/error.h"
#include "common/operation.h"
#include "server/traffic/request_charge.h"

namespace malachite::server {

struct RequestFacts {
  std::optional<Operation> op;  // nullopt: the request could not be routed
  std::string_view account;     // as routed
  // The table as the route (or the $batch's operations) names it; empty for account-level
  // operations (Query Tables, Create Table, service properties, ...).
  std::string_view table;
  int status = 200;
  std::optional<ErrorCode> error;  // the Azure error answered, if any
  // The Error that refused the request, when it has a detail (the answered one, or the error
  // part of a $batch that refused its changeset inside a 202): the detail may name a rule
  // (common/refusal.h).
  const Error* refusal = nullptr;
  std::string_view method;  // as received
  std::string_view target;  // as received: path and query, a SAS's signature included
  // The partition the request worked in (route or handler), and entity routes' RowKey.
  std::string_view partition_key;
  std::string_view row_key;
  std::uint64_t entities = 1;                  // entities written or read (a $batch of N: N)
  const QueryStats* query = nullptr;           // Query Entities, Get Entity, Query Tables
  const WriteStats* write = nullptr;           // entity writes and $batch
  std::string_view filter;                     // the $filter text of a query, if any
  std::chrono::steady_clock::time_point at{};  // when the request arrived
};

}  // namespace malachite::server
