#include "server/ops/table_settings.h"

#include <array>
#include <cstddef>
#include <string>
#include <utility>

#include "server/auth/acl_xml.h"
#include "server/wire/service_properties_record.h"

namespace malachite::server {
namespace {

struct CachedProperties {
  storage::StoreGeneration generation;  // of the snapshot they were read in; store_id 0: empty
  std::string account;
  std::shared_ptr<const ServiceProperties> properties;
};

// A handful per thread: a server serves a few accounts, and a miss costs one read.
struct PropertiesCache {
  std::array<CachedProperties, 4> slots;
  std::size_t next = 0;
};

thread_local PropertiesCache properties_cache;

}  // namespace

PolicyLookup StoredPolicyLookup(storage::Store& store) {
  return [&store](std::string_view account, std::string_view table,
                  std::string_view id) -> Result<std::optional<AccessPolicy>> {
    auto view = store.Read();
    if (!view) return tl::unexpected(view.error());
    auto info = (*view)->FindTable(account, table);
    if (!info) return tl::unexpected(info.error());
    if (!*info) return std::optional<AccessPolicy>();
    auto acl = ReadTableAcl(**view, **info);
    if (!acl) return tl::unexpected(acl.error());
    for (SignedIdentifier& identifier : *acl) {
      if (identifier.id == id) return std::optional<AccessPolicy>(std::move(identifier.policy));
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
  PropertiesCache& cache = properties_cache;
  // An entry read in a snapshot of the generation the store is still at holds what it holds
  // (catalog_generation.h: a stable generation that has not moved saw no settings write begin).
  const storage::StoreGeneration now = store.Generation();
  if (now.stable()) {
    for (const CachedProperties& slot : cache.slots) {
      if (slot.generation == now && slot.account == account) return slot.properties;
    }
  }
  auto view = store.Read();
  if (!view) return tl::unexpected(view.error());
  auto properties = ReadServiceProperties(**view, account);
  if (!properties) return tl::unexpected(properties.error());
  const storage::StoreGeneration seen = (*view)->generation();
  view->reset();
  auto shared = std::make_shared<const ServiceProperties>(std::move(*properties));
  if (seen.stable()) {
    cache.slots[cache.next] = CachedProperties{seen, std::string(account), shared};
    cache.next = (cache.next + 1) % cache.slots.size();
  }
  return shared;
}

}  // namespace malachite::server
