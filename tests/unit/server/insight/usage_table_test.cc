// The usage table (usage_table.h): what the advisor and the bill know per table, keyed
// case-insensitively, with a bounded number of entries.
#include "server/insight/usage_table.h"

#include <catch2/catch.hpp>
#include <string>

namespace malachite::server {
namespace {

// "account/table=<single_deletes> " for every entry, in the snapshot's order.
std::string Dump(const UsageTable& table) {
  std::string out;
  for (const TableUsage& usage : table.Snapshot()) {
    out += usage.account + "/" + usage.table + "=" + std::to_string(usage.single_deletes) + " ";
  }
  return out;
}

void Count(TableUsage& usage) { usage.single_deletes++; }

}  // namespace

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

TEST_CASE(
    "usage_table: ForgetAccount erases the account's entries, and a thread's cached entry of "
    "one is never used again",
    "[insight]") {
  UsageTable table(3);
  table.With("gone", "u", Count);
  table.With("kept", "t", Count);
  table.With("gone", "t", Count);
  table.With("gone", "x", Count);  // beyond capacity: the account's "(other tables)"
  table.With("gone", "t", Count);  // through this thread's cache of the last entry found
  CHECK(Dump(table) == "gone/(other tables)=1 gone/t=2 gone/u=1 kept/t=1 ");
  table.ForgetAccount("gone");
  CHECK(Dump(table) == "kept/t=1 ");
  CHECK(table.size() == 1);
  // The cache still names the erased entry: the lookup must make a new one, not write into
  // freed memory.
  table.With("gone", "t", Count);
  table.With("gone", "t", Count);
  CHECK(Dump(table) == "gone/t=2 kept/t=1 ");
  CHECK(table.size() == 2);
}

}  // namespace malachite::server
