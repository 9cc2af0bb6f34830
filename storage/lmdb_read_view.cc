#include "storage/lmdb_read_view.h"

#include "storage/catalog_generation.h"
#include "storage/key_codec.h"

namespace malachite::storage {

void LmdbEntityView::DecodeKeys() const {
  if (keys_decoded_) return;
  keys_decoded_ = true;
  // ASCII keys are read where LMDB holds them; others are decoded into one buffer kept from row
  // to row (no allocation once warm).
  if (KeysInPlace(key_, &pk_, &rk_)) return;
  keys_.clear();
  std::size_t pk_size = 0;
  if (!AppendDecodedKeys(&keys_, key_, &pk_size)) {
    key_error_ = true;
    pk_ = rk_ = {};
    return;
  }
  pk_ = std::string_view(keys_).substr(0, pk_size);
  rk_ = std::string_view(keys_).substr(pk_size);
}

std::optional<PropertyView> LmdbEntityView::Get(std::string_view name) const {
  // The keys are decoded only for a filter that reads them.
  switch (FindSystemProperty(name)) {
    case SystemProperty::kPartitionKey:
      return StringPropertyView(partition_key());
    case SystemProperty::kRowKey:
      return StringPropertyView(row_key());
    case SystemProperty::kTimestamp:
      return DateTimePropertyView(record_.timestamp());
    case SystemProperty::kNone:
      break;
  }
  return record_.Find(name);
}

Entity LmdbEntityView::Decode() const {
  Entity e;
  e.partition_key = partition_key();
  e.row_key = row_key();
  e.timestamp = record_.timestamp();
  // Reset() validated the header; a malformed property list decodes as far as it is readable.
  (void)record_.DecodeProperties(&e.properties);
  return e;
}

Result<std::optional<TableInfo>> LmdbReadView::FindTable(std::string_view account,
                                                         std::string_view name) {
  const std::uint64_t store = core_.generation.store_id();
  if (const TableInfo* kept = FindCachedTable(store, generation_, account, name)) {
    return std::optional<TableInfo>(*kept);
  }
  auto found = core_.catalog.Find(txn_, account, name);
  if (found && *found) CacheTable(store, generation_, name, **found);
  return found;
}

Result<void> LmdbReadView::ScanTables(std::string_view account, std::string_view from_lower,
                                      const std::function<bool(const TableInfo&)>& visit) {
  return core_.catalog.Scan(txn_, account, from_lower, visit);
}

Result<std::optional<Entity>> LmdbReadView::GetEntity(const TableInfo& table, std::string_view pk,
                                                      std::string_view rk) {
  std::optional<Entity> entity;
  auto found =
      VisitEntity(table, pk, rk, [&entity](const EntityView& view) { entity = view.Decode(); });
  if (!found) return tl::unexpected<Error>(found.error());
  return entity;
}

Result<bool> LmdbReadView::VisitEntity(const TableInfo& table, std::string_view pk,
                                       std::string_view rk,
                                       FunctionRef<void(const EntityView&)> visit) {
  key_buf_.clear();
  AppendEntityKey(&key_buf_, table.id, pk, rk);
  auto record = core_.entities.Get(txn_, key_buf_);
  if (!record) return tl::unexpected<Error>(record.error());
  if (!*record) return false;
  LmdbEntityView view;
  if (!view.Reset(key_buf_, **record)) {
    return tl::unexpected<Error>(EntityRecord::Parse(**record).error());
  }
  visit(view);
  if (view.key_error()) return Fail(ErrorCode::kInternalError, "storage: malformed entity key");
  return true;
}

Result<void> LmdbReadView::ScanEntities(const TableInfo& table, const KeyRange& range,
                                        FunctionRef<bool(const EntityView&)> visit) {
  EncodedRange encoded = EncodeKeyRange(table.id, range);
  LmdbEntityView view;
  Result<void> failure;
  auto scanned =
      core_.entities.Scan(txn_, encoded, [&](std::string_view key, std::string_view record) {
        if (!view.Reset(key, record)) {
          if (auto parsed = EntityRecord::Parse(record); !parsed)
            failure = tl::unexpected(parsed.error());
          return false;
        }
        const bool more = visit(view);
        if (view.key_error()) {
          failure = Fail(ErrorCode::kInternalError, "storage: malformed entity key");
          return false;
        }
        return more;
      });
  if (!scanned) return scanned;
  return failure;
}

Result<std::optional<std::string>> LmdbReadView::GetTableAcl(const TableInfo& table) {
  return core_.settings.Get(txn_, TableAclKey(table.id));
}

Result<std::optional<std::string>> LmdbReadView::GetServiceProperties(std::string_view account) {
  return core_.settings.Get(txn_, ServicePropertiesKey(account));
}

Result<void> LmdbReadView::ScanRuntimeAccounts(
    const std::function<void(std::string_view, std::string_view)>& visit) {
  return core_.settings.Scan(
      txn_, std::string_view(&kRuntimeAccountPrefix, 1),
      [&](std::string_view key, std::string_view record) { visit(key.substr(1), record); });
}

}  // namespace malachite::storage
