// The traffic history behind the explorer's charts (history.h): one sample a second, each the
// difference of that second's totals, rendered as JSON.
#include "server/insight/history.h"

#include <catch2/catch.hpp>

namespace malachite::server {

TEST_CASE("history: each sample is the difference of one second's totals", "[insight]") {
  TrafficHistory history;
  TrafficTotals totals;
  const DateTime t0{638000000000000000};
  history.Add(t0, totals, {});  // the baseline only
  totals.counters.requests[static_cast<std::size_t>(Operation::kInsertEntity)] = 5;
  totals.counters.requests[kOperationCount] = 1;
  totals.counters.errors[static_cast<std::size_t>(ErrorCode::kServerBusy)] = 2;
  totals.throttled = 2;
  totals.faults = 1;
  history.Add(DateTime{t0.ticks + kTicksPerSecond}, totals,
              {PartitionReport{"devstoreaccount1", "orders", "p1", 1234.5, 1500, 4000, 3, false}});
  history.Add(DateTime{t0.ticks + 2 * kTicksPerSecond}, totals, {});
  CHECK(history.size() == 2);
  CHECK(history.Json(DateTime{}, 2000) ==
        "{\"target\":2000,\"interval_ms\":1000,\"samples\":["
        "{\"t\":1664403201000,\"requests\":{\"InsertEntity\":5,\"Unrouted\":1},"
        "\"errors\":{\"ServerBusy\":2},\"throttled\":2,\"faults\":1,\"partitions\":["
        "{\"account\":\"devstoreaccount1\",\"table\":\"orders\",\"partition\":\"p1\","
        "\"rate\":1234.5,\"peak\":1500,\"total\":4000,\"throttled\":3,\"offline\":false}]},"
        "{\"t\":1664403202000,\"requests\":{},\"errors\":{},\"throttled\":0,\"faults\":0,"
        "\"partitions\":[]}]}\n");
  // Only the samples after `since`.
  CHECK(history.Json(DateTime{t0.ticks + kTicksPerSecond}, 2000).find("1664403201000") ==
        std::string::npos);
}

}  // namespace malachite::server
