#include "server/pipeline/failure_log.h"

#include <catch2/catch.hpp>

namespace malachite::server {

TEST_CASE("failure_log: 5xx answers and a full store are server failures, client errors are not",
          "[logging]") {
  CHECK(IsServerFailure(Error{ErrorCode::kInternalError, {}, {}}));
  CHECK(IsServerFailure(Error{ErrorCode::kServerBusy, {}, {}}));
  CHECK(IsServerFailure(Error{ErrorCode::kNotImplemented, {}, {}}));
  CHECK(IsServerFailure(Error{ErrorCode::kInsufficientAccountResources, {}, {}}));
  CHECK_FALSE(IsServerFailure(Error{ErrorCode::kInvalidInput, {}, {}}));
  CHECK_FALSE(IsServerFailure(Error{ErrorCode::kRequestBodyTooLarge, {}, {}}));
}

TEST_CASE("failure_log: the line names the request id, operation, path (no query) and cause",
          "[logging]") {
  Exchange exchange;
  exchange.request.method = "POST";
  exchange.request.target = "/devstoreaccount1/t?sig=secret";
  exchange.request.remote_address = "127.0.0.1";
  exchange.request_id = "5f2c";
  exchange.routed = true;
  exchange.route.op = Operation::kInsertEntity;
  std::string line;
  FormatFailureLine(exchange,
                    Error{ErrorCode::kInternalError, "storage: commit: Input/output error",
                          "storage: commit: Input/output error"},
                    line);
  CHECK(line ==
        "request 5f2c: InsertEntity POST /devstoreaccount1/t: 500 InternalError: storage: "
        "commit: Input/output error remote=127.0.0.1");

  Exchange unrouted;
  unrouted.request.method = "PUT";
  unrouted.request.target = "/x";
  line.clear();
  FormatFailureLine(unrouted, Error{ErrorCode::kServerBusy, {}, "bodies fill the budget"}, line);
  CHECK(line ==
        "request -: - PUT /x: 503 ServerBusy: The server is busy. (bodies fill the budget)");
}

}  // namespace malachite::server
