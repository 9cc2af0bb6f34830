#include "server/ops/table_settings.h"

#include <array>
#include <cstddef>
#include <string>
#include <utility>

#include "server/auth/acl_xml.h"
#include "server/wire/service_properties_record.h"

namespace malachite::server {
namespace {

// One thread's last few settings read from the store, by account and table ("" for an account's
// own). An entry read in a snapshot of the generation the store is still at holds what it holds
// (catalog_generation.h: a stable generation that has not moved saw no catalog or settings write
// begin). A handful per thread: a server serves a few accounts, and a miss costs one read.
template <typename Value>
class GenerationCache {
 public:
  std::shared_ptr<const Value> Find(storage::StoreGeneration now, std::string_view account,
                                    std::string_view table) const {
    if (!now.stable()) return nullptr;
    for (const Slot& slot : slots_) {
      if (slot.generation == now && slot.account == account && slot.table == table) {
        return slot.value;
      }
    }
    return nullptr;
  }

  void Keep(storage::StoreGeneration seen, std::string_view account, std::string_view table,
            std::shared_ptr<const Value> value) {
    if (!seen.stable()) return;
    slots_[next_] = Slot{seen, std::string(account), std::string(table), std::move(value)};
    next_ = (next_ + 1) % slots_.size();
  }

 private:
  struct Slot {
    storage::StoreGeneration generation;  // of the snapshot it was read in; store_id 0: empty
    std::string account;
    std::string table;
    std::shared_ptr<const Value> value;
  };
  std::array<Slot, 4> slots_;
  std::size_t next_ = 0;
};

thread_local GenerationCache<ServiceProperties> properties_cache;
thread_local GenerationCache<SignedIdentifiers> acl_cache;

// The stored policies of `account`'s `table` as the store holds them now (none for a table that
// does not exist), through acl_cache.
Result<std::shared_ptr<const SignedIdentifiers>> CachedTableAcl(storage::Store& store,
                                                                std::string_view account,
                                                                std::string_view table) {
  if (auto hit = acl_cache.Find(store.Generation(), account, table)) return hit;
  auto view = store.Read();
  if (!view) return tl::unexpected(view.error());
  auto info = (*view)->FindTable(account, table);
  if (!info) return tl::unexpected(info.error());
  SignedIdentifiers acl;
  if (*info) {
    auto stored = ReadTableAcl(**view, **info);
    if (!stored) return tl::unexpected(stored.error());
    acl = std::move(*stored);
  }
  const storage::StoreGeneration seen = (*view)->generation();
  view->reset();
  auto shared = std::make_shared<const SignedIdentifiers>(std::move(acl));
  acl_cache.Keep(seen, account, table, shared);
  return shared;
}

}  // namespace

PolicyLookup StoredPolicyLookup(storage::Store& store) {
  return [&store](std::string_view account, std::string_view table,
                  std::string_view id) -> Result<std::optional<AccessPolicy>> {
    auto acl = CachedTableAcl(store, account, table);
    if (!acl) return tl::unexpected(acl.error());
    for (const SignedIdentifier& identifier : **acl) {
      if (identifier.id == id) return std::optional<AccessPolicy>(identifier.policy);
    }
    return std::optional<AccessPolicy>();
  };
}

Result<SignedIdentifiers> ReadTableAcl(storage::ReadView& view, const storage::TableInfo& table) {
  auto record = view.GetTableAcl(table);
  if (!record) return tl::unexpected(record.error());
  if (!*record) return SignedIdentifiers{};
  return DecodeAclRecord(**record);
}

Result<ServiceProperties> ReadServiceProperties(storage::ReadView& view, std::string_view account) {
  auto record = view.GetServiceProperties(account);
  if (!record) return tl::unexpected(record.error());
  if (!*record) return DefaultServiceProperties();
  return DecodeServicePropertiesRecord(**record);
}

Result<std::shared_ptr<const ServiceProperties>> CachedServiceProperties(storage::Store& store,
                                                                         std::string_view account) {
  if (auto hit = properties_cache.Find(store.Generation(), account, {})) return hit;
  auto view = store.Read();
  if (!view) return tl::unexpected(view.error());
  auto properties = ReadServiceProperties(**view, account);
  if (!properties) return tl::unexpected(properties.error());
  const storage::StoreGeneration seen = (*view)->generation();
  view->reset();
  auto shared = std::make_shared<const ServiceProperties>(std::move(*properties));
  properties_cache.Keep(seen, account, {}, shared);
  return shared;
}

}  // namespace malachite::server
