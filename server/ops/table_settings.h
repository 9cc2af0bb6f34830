// The stored table ACLs and account service properties, read through storage::Store and decoded
// (acl_xml.h, service_properties.h). Synchronous, one short ReadView per call (ARCHITECTURE.md rule
// 2).
#pragma once

#include <string_view>

#include "common/error.h"
#include "server/auth/access_policy.h"
#include "server/auth/sas.h"
#include "server/wire/service_properties.h"
#include "storage/store.h"

namespace malachite::server {

// The SAS `si` lookup over `store` (which must outlive the returned function): reads the
// table's ACL at request time, so changed or removed policies apply at once. Errors: storage
// errors, kInternalError for an undecodable record.
PolicyLookup StoredPolicyLookup(storage::Store& store);

// The policies of `table` (empty when none were set).
Result<SignedIdentifiers> ReadTableAcl(storage::ReadView& view, const storage::TableInfo& table);

// The properties of `account`: the stored ones, or DefaultServiceProperties().
Result<ServiceProperties> ReadServiceProperties(storage::ReadView& view, std::string_view account);

}  // namespace malachite::server
