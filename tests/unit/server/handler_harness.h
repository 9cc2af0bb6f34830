// A real store in a temp dir (tests/support/store_fixture.h), its ManualClock and one call that
// runs a request the way the pipeline does: RouteRequest -> Dispatch -> the ReadFn, or
// (Store::Write of the WriteFn -> finish). Each call returns one printable dump of the response, so
// tests compare a single golden string.
#pragma once

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "common/datetime.h"
#include "server/http/route.h"
#include "server/http/router.h"
#include "server/http/url_coding.h"
#include "server/ops/handler.h"
#include "server/pipeline/dispatch.h"
#include "storage/store.h"
#include "tests/support/store_fixture.h"

namespace malachite::server::testing {

inline constexpr std::string_view kBaseUrl = "http://127.0.0.1:10002/devstoreaccount1";
// 2024-05-06T07:08:09.1234567Z: every write gets this, then one tick more each time.
inline DateTime StartTime() { return *ParseIso8601("2024-05-06T07:08:09.1234567Z"); }

class Harness {
 public:
  Harness()
      : fixture_({.start = StartTime(),
                  .map_size_bytes = 1ull << 30,
                  .dir_prefix = "malachite-handlers"}) {}

  storage::Store& store() { return fixture_.store(); }
  // RequestContext query settings for the next Run calls.
  bool explain = false;
  std::chrono::milliseconds query_budget{5000};
  ManualClock& clock() { return fixture_.clock(); }

  // Runs the request and returns the response; errors are rendered as status + Azure code in
  // `error_code` (body empty), keeping the headers `finish` set.
  struct Reply {
    int status = 0;
    std::string error_code;  // empty on success
    std::vector<Header> headers;
    std::string body;
    std::optional<QueryStats> query_stats;  // Outcome::query_stats
    std::optional<std::string_view> Find(std::string_view name) const {
      for (const Header& h : headers) {
        if (h.name == name) return h.value;
      }
      return std::nullopt;
    }
  };

  Reply Run(std::string method, std::string target, std::string body = {},
            std::vector<Header> headers = {}, MetadataLevel level = MetadataLevel::kMinimal) {
    Request request;
    request.method = std::move(method);
    request.target = "/devstoreaccount1/" + std::move(target);
    request.headers = std::move(headers);
    request.body = std::move(body);
    Reply reply;
    auto route = RouteRequest(request);
    if (!route) return ErrorReply(route.error(), {});
    RequestContext ctx{request, *route, level, std::string(kBaseUrl), clock(), store()};
    ctx.explain = explain;
    ctx.query_budget = query_budget;
    auto outcome = Dispatch(ctx);
    if (!outcome) return ErrorReply(outcome.error(), {});
    if (outcome->read) {
      if (auto read = outcome->read(ctx, *outcome); !read) return ErrorReply(read.error(), {});
    }
    Response& response = outcome->response;
    if (outcome->write) {
      Result<void> written = store().Write(outcome->write);
      Result<void> finished = outcome->finish(response, std::move(written));
      if (!finished) return ErrorReply(finished.error(), response.headers);
    }
    reply.status = response.status;
    reply.query_stats = outcome->query_stats;
    reply.headers = std::move(response.headers);
    reply.body = std::move(response.body);
    return reply;
  }

  // "<status>\n<Name>: <value>\n...\n\n<body>" or "<status> <AzureCode>\n<headers>".
  std::string Call(std::string method, std::string target, std::string body = {},
                   std::vector<Header> headers = {},
                   MetadataLevel level = MetadataLevel::kMinimal) {
    return Dump(
        Run(std::move(method), std::move(target), std::move(body), std::move(headers), level));
  }

  static std::string Dump(const Reply& reply) {
    std::string out = std::to_string(reply.status);
    if (!reply.error_code.empty()) out += " " + reply.error_code;
    out += "\n";
    for (const Header& h : reply.headers) out += h.name + ": " + h.value + "\n";
    if (!reply.body.empty()) out += "\n" + reply.body;
    return out;
  }

 private:
  static Reply ErrorReply(const Error& error, std::vector<Header> headers) {
    Reply reply;
    reply.status = error.HttpStatus();
    reply.error_code = std::string(error.AzureCode());
    reply.headers = std::move(headers);
    return reply;
  }

  malachite::testing::StoreFixture fixture_;
};

// Follows a query's continuations from `target` (which ends in a query string or "?") to the end;
// returns the Int32 property "N" of every entity, in order, and the number of pages.
inline std::pair<std::vector<int>, int> ReadAllPages(Harness& h, const std::string& target) {
  std::vector<int> seen;
  int pages = 0;
  std::string next;
  while (true) {
    auto reply = h.Run("GET", target + next, {}, {}, MetadataLevel::kNone);
    REQUIRE(reply.status == 200);
    ++pages;
    for (std::size_t pos = 0; (pos = reply.body.find("\"N\":", pos)) != std::string::npos;) {
      pos += 4;
      seen.push_back(std::stoi(reply.body.substr(pos)));
    }
    auto pk = reply.Find("x-ms-continuation-NextPartitionKey");
    if (!pk) break;
    auto rk = reply.Find("x-ms-continuation-NextRowKey");
    REQUIRE(rk);
    next = "&NextPartitionKey=" + PercentEncode(*pk) + "&NextRowKey=" + PercentEncode(*rk);
    REQUIRE(pages < 10000);
  }
  return {seen, pages};
}

}  // namespace malachite::server::testing
