// A Store in a temp dir with a hand-set clock, plus helpers that make test bodies short.
#pragma once

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/datetime.h"
#include "storage/store.h"
#include "temp_dir.h"

namespace malachite::storage::testing {

class StoreFixture {
 public:
  explicit StoreFixture(Durability durability = Durability::kNone) : durability_(durability) {
    Reopen();
  }

  StoreOptions Options() const {
    StoreOptions options;
    options.data_dir = dir_.path() + "/data";
    options.durability = durability_;
    return options;
  }
  // Closes the store (draining the writer) and opens it again on the same directory.
  void Reopen() {
    store_.reset();
    auto opened = Store::Open(Options(), clock_);
    if (!opened) FAIL("Store::Open: " << opened.error().message);
    store_ = std::move(*opened);
  }
  void Close() { store_.reset(); }

  Store& store() { return *store_; }
  ManualClock& clock() { return clock_; }
  const std::string& dir() const { return dir_.path(); }

  TableInfo CreateTable(const std::string& account, const std::string& name) {
    std::optional<TableInfo> info;
    auto ok = store_->Write([&](WriteContext& ctx) -> Result<void> {
      auto created = ctx.CreateTable(account, name);
      if (!created) return tl::unexpected<Error>(created.error());
      info = *created;
      return {};
    });
    REQUIRE(ok);
    REQUIRE(info);
    return *info;
  }

  void Put(const TableInfo& table, const std::string& pk, const std::string& rk,
           std::vector<Property> props = {}) {
    auto ok = store_->Write([&](WriteContext& ctx) -> Result<void> {
      Entity e{pk, rk, ctx.NextTimestamp(), props};
      return ctx.PutEntity(table, e);
    });
    REQUIRE(ok);
  }

  // "pk/rk" of every entity in `range`, in scan order.
  std::vector<std::string> Keys(const TableInfo& table, const KeyRange& range = {}) {
    std::vector<std::string> out;
    auto view = store_->Read();
    REQUIRE(view);
    auto ok = (*view)->ScanEntities(table, range, [&](const EntityView& e) {
      out.push_back(std::string(e.partition_key()) + "/" + std::string(e.row_key()));
      return true;
    });
    REQUIRE(ok);
    return out;
  }

 private:
  TempDir dir_;
  Durability durability_;
  ManualClock clock_{DateTime{kUnixEpochTicks + 1'700'000'000LL * kTicksPerSecond}};
  std::unique_ptr<Store> store_;
};

}  // namespace malachite::storage::testing
