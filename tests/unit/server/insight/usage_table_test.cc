// The usage table (usage_table.h): what the advisor and the bill know per table, keyed
// case-insensitively, with a bounded number of entries.
#include "server/insight/usage_table.h"

#include <catch2/catch.hpp>
#include <string>

namespace malachite::server {

TEST_CASE(
    "usage_table: table names compare case-insensitively, beyond capacity tables share one "
    "entry",
    "[insight]") {
  UsageTable table(2);
  auto count = [](TableUsage& usage) { usage.single_deletes++; };
  table.With("acct", "Orders", count);
  table.With("acct", "ORDERS", count);
  table.With("acct", "second", count);
  table.With("acct", "third", count);
  table.With("acct", "fourth", count);
  std::string out;
  for (const TableUsage& usage : table.Snapshot()) {
    out += usage.table + "=" + std::to_string(usage.single_deletes) + " ";
  }
  CHECK(out == "(other tables)=2 Orders=2 second=1 ");
}

}  // namespace malachite::server
