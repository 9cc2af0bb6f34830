#include "server/pipeline/access_log.h"

#include <catch2/catch.hpp>

namespace malachite::server {

TEST_CASE("access_log: one line with method, target, status, duration, request id and peer",
          "[access_log]") {
  Exchange exchange;
  exchange.request.method = "POST";
  exchange.request.target = "/devstoreaccount1/Tables";
  exchange.response.status = 201;
  exchange.request_id = "0f8c-id";
  std::string line;
  FormatAccessLine(exchange, "127.0.0.1", std::chrono::microseconds(153), line);
  CHECK(line == "POST /devstoreaccount1/Tables 201 153us id=0f8c-id remote=127.0.0.1");
}

TEST_CASE("access_log: queries add entities scanned and returned", "[access_log]") {
  Exchange exchange;
  exchange.request.method = "GET";
  exchange.request.target = "/devstoreaccount1/t()?$filter=PartitionKey%20eq%20'a'";
  exchange.query_stats = QueryStats{40, 2};
  std::string line;
  FormatAccessLine(exchange, "", std::chrono::microseconds(9), line);
  CHECK(line ==
        "GET /devstoreaccount1/t()?$filter=PartitionKey%20eq%20'a' 200 9us scanned=40 "
        "returned=2");
}

TEST_CASE("access_log: a SAS signature in the query is redacted", "[access_log]") {
  Exchange exchange;
  exchange.request.method = "GET";
  exchange.request.target = "/acct/t()?sv=2019-02-02&sig=c2VjcmV0%3D&se=2030-01-01&SIG=x";
  std::string line;
  FormatAccessLine(exchange, "", std::chrono::microseconds(1), line);
  CHECK(line == "GET /acct/t()?sv=2019-02-02&sig=REDACTED&se=2030-01-01&sig=REDACTED 200 1us");
}

}  // namespace malachite::server
