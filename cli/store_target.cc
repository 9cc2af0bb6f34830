// The offline TableTarget: a data directory opened as a storage::Store (which takes the
// directory's lock, so a running server's directory is refused).
#include <algorithm>
#include <filesystem>

#include "cli/table_target.h"
#include "storage/data_dir_lock.h"
#include "storage/store.h"

namespace malachite::cli {
namespace {

class StoreTarget final : public TableTarget {
 public:
  StoreTarget(std::unique_ptr<storage::Store> store, std::string dir, std::string account)
      : store_(std::move(store)), dir_(std::move(dir)), account_(std::move(account)) {}

  std::string Describe() const override {
    return "data directory " + dir_ + " (account " + account_ + ")";
  }

  Result<std::vector<std::string>> ListTables() override {
    auto view = store_->Read();
    if (!view) return tl::unexpected(view.error());
    std::vector<std::string> names;
    auto ok = (*view)->ScanTables(account_, "", [&](const storage::TableInfo& t) {
      names.push_back(t.name);
      return true;
    });
    if (!ok) return tl::unexpected(ok.error());
    return names;
  }

  Result<void> ScanTable(const std::string& table,
                         const std::function<bool(Entity&&)>& visit) override {
    auto view = store_->Read();
    if (!view) return tl::unexpected(view.error());
    auto info = (*view)->FindTable(account_, table);
    if (!info) return tl::unexpected(info.error());
    if (!*info) return Fail(ErrorCode::kTableNotFound, "table " + table + " does not exist");
    return (*view)->ScanEntities(**info, KeyRange{},
                                 [&](const storage::EntityView& e) { return visit(e.Decode()); });
  }

  Result<void> EnsureTable(const std::string& table) override {
    return store_->Write([&](storage::WriteContext& ctx) -> Result<void> {
      auto created = ctx.CreateTable(account_, table);
      if (!created) return tl::unexpected(created.error());
      return {};
    });
  }

  tl::expected<void, WriteFailure> WriteGroup(const std::string& table,
                                              const std::vector<Entity>& entities, ImportMode mode,
                                              bool keep_timestamps) override {
    std::size_t failed = 0;
    auto ok = store_->Write([&](storage::WriteContext& ctx) -> Result<void> {
      auto info = ctx.FindTable(account_, table);
      if (!info) return tl::unexpected(info.error());
      if (!*info) return Fail(ErrorCode::kTableNotFound);
      for (failed = 0; failed < entities.size(); ++failed) {
        if (auto put = Put(ctx, **info, entities[failed], mode, keep_timestamps); !put) return put;
      }
      return {};
    });
    if (!ok) {
      return tl::unexpected(WriteFailure{
          ok.error(), failed < entities.size() ? std::optional<std::size_t>(failed) : std::nullopt,
          false});
    }
    return {};
  }

  // Offline there is no request size limit; a group is one LMDB nested transaction.
  std::size_t max_group() const override { return 1000; }
  bool groups_by_partition() const override { return false; }

 private:
  static Result<void> Put(storage::WriteContext& ctx, const storage::TableInfo& table,
                          const Entity& entity, ImportMode mode, bool keep_timestamp) {
    Entity stored = entity;
    if (!keep_timestamp) stored.timestamp = ctx.NextTimestamp();
    if (mode != ImportMode::kUpsert) {
      auto existing = ctx.GetEntity(table, entity.partition_key, entity.row_key);
      if (!existing) return tl::unexpected(existing.error());
      if (*existing && mode == ImportMode::kInsert) return Fail(ErrorCode::kEntityAlreadyExists);
      if (*existing) {
        // Azure: spec §4.9 — Merge keeps the properties the body does not name.
        std::vector<Property> merged = std::move((*existing)->properties);
        for (const Property& p : stored.properties) {
          auto old = std::find_if(merged.begin(), merged.end(),
                                  [&](const Property& q) { return q.name == p.name; });
          if (old != merged.end()) {
            old->value = p.value;
          } else {
            merged.push_back(p);
          }
        }
        stored.properties = std::move(merged);
      }
    }
    return ctx.PutEntity(table, stored);
  }

  std::unique_ptr<storage::Store> store_;
  std::string dir_;
  std::string account_;
};

}  // namespace

Result<std::unique_ptr<TableTarget>> OpenStoreTarget(const std::string& data_dir,
                                                     const std::string& account, bool create) {
  std::error_code ec;
  if (!create && !std::filesystem::exists(std::filesystem::path(data_dir) / "data.mdb", ec)) {
    return Fail(ErrorCode::kInvalidInput, "data directory " + data_dir + " holds no store");
  }
  storage::StoreOptions options;
  options.data_dir = data_dir;
  auto store = storage::Store::Open(options, SystemClock::Instance());
  if (!store) {
    if (store.error().message.find(storage::kDataDirInUse) != std::string::npos) {
      return Fail(ErrorCode::kInvalidInput,
                  "data directory " + data_dir +
                      " is in use by a running server: stop it first, or go through the "
                      "server with --endpoint URL or --connection-string");
    }
    return tl::unexpected(store.error());
  }
  return std::unique_ptr<TableTarget>(new StoreTarget(std::move(*store), data_dir, account));
}

}  // namespace malachite::cli
