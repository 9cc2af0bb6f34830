// A real Store in a fresh temp dir with a hand-set clock (tests use real LMDB, no mocks; the clock
// is the one seam), plus helpers that keep storage test bodies short. The server harnesses
// (tests/unit/server/*_harness.h) build on it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "common/datetime.h"
#include "common/key_range.h"
#include "storage/store.h"
#include "tests/support/temp_dir.h"

namespace malachite::testing {

struct StoreFixtureOptions {
  // Where the clock starts: 2023-11-14T22:13:20Z (Unix time 1,700,000,000) unless set.
  DateTime start{kUnixEpochTicks + 1'700'000'000LL * kTicksPerSecond};
  // kFull: every commit waits for its fsync and none is inlined (Store::TryWrite), as in
  // production with --durability full; kNone: no syncing at all.
  Durability durability = Durability::kNone;
  std::uint64_t map_size_bytes = storage::StoreOptions{}.map_size_bytes;
  std::string_view dir_prefix = "malachite-store";  // names the temp dir
};

class StoreFixture {
 public:
  // Opens the store in <temp dir>/data. A failure to open fails the running test.
  explicit StoreFixture(StoreFixtureOptions options = {});

  // The options the store is opened with.
  storage::StoreOptions Options() const;
  // Closes the store (draining the writer) and opens it again on the same directory.
  void Reopen();
  // Closes the store; store() must not be called until Reopen.
  void Close() { store_.reset(); }

  storage::Store& store() { return *store_; }
  ManualClock& clock() { return clock_; }
  // The temp dir; the store's files are in its "data" sub-directory.
  const std::string& dir() const { return dir_.path(); }

  // Creates table `name` of `account` in one write; REQUIREs success.
  storage::TableInfo CreateTable(const std::string& account, const std::string& name);
  // Deletes table `name` of `account` in one write; REQUIREs success. False when there was none.
  bool DeleteTable(const std::string& account, const std::string& name);
  // Stores (inserts or replaces) one entity in one write; REQUIREs success.
  void Put(const storage::TableInfo& table, const std::string& pk, const std::string& rk,
           std::vector<Property> props = {});
  // "pk/rk" of every entity in `range`, in scan order.
  std::vector<std::string> Keys(const storage::TableInfo& table, const KeyRange& range = {});

 private:
  TempDir dir_;
  StoreFixtureOptions options_;
  ManualClock clock_;
  std::unique_ptr<storage::Store> store_;  // declared last: closed before the clock goes
};

}  // namespace malachite::testing
