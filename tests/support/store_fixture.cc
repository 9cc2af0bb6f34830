#include "tests/support/store_fixture.h"

#include <catch2/catch.hpp>
#include <optional>

namespace malachite::testing {

using storage::TableInfo;
using storage::WriteContext;

StoreFixture::StoreFixture(StoreFixtureOptions options)
    : dir_(options.dir_prefix), options_(options), clock_(options.start) {
  Reopen();
}

storage::StoreOptions StoreFixture::Options() const {
  storage::StoreOptions options;
  options.data_dir = dir_.path() + "/data";
  options.durability = options_.durability;
  options.map_size_bytes = options_.map_size_bytes;
  return options;
}

void StoreFixture::Reopen() {
  store_.reset();
  auto opened = storage::Store::Open(Options(), clock_);
  if (!opened) FAIL("Store::Open: " << opened.error().message);
  store_ = std::move(*opened);
}

TableInfo StoreFixture::CreateTable(const std::string& account, const std::string& name) {
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

bool StoreFixture::DeleteTable(const std::string& account, const std::string& name) {
  bool deleted = false;
  auto ok = store_->Write([&](WriteContext& ctx) -> Result<void> {
    auto d = ctx.DeleteTable(account, name);
    if (!d) return tl::unexpected<Error>(d.error());
    deleted = *d;
    return {};
  });
  REQUIRE(ok);
  return deleted;
}

void StoreFixture::Put(const TableInfo& table, const std::string& pk, const std::string& rk,
                       std::vector<Property> props) {
  auto ok = store_->Write([&](WriteContext& ctx) -> Result<void> {
    Entity e{pk, rk, ctx.NextTimestamp(), props};
    return ctx.PutEntity(table, e);
  });
  REQUIRE(ok);
}

std::vector<std::string> StoreFixture::Keys(const TableInfo& table, const KeyRange& range) {
  std::vector<std::string> out;
  auto view = store_->Read();
  REQUIRE(view);
  auto ok = (*view)->ScanEntities(table, range, [&](const storage::EntityView& e) {
    out.push_back(std::string(e.partition_key()) + "/" + std::string(e.row_key()));
    return true;
  });
  REQUIRE(ok);
  return out;
}

}  // namespace malachite::testing
