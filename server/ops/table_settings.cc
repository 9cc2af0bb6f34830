#include "server/ops/table_settings.h"

#include "server/auth/acl_xml.h"
#include "server/wire/service_properties_record.h"

namespace malachite::server {

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

}  // namespace malachite::server
