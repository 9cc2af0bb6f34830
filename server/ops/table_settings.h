// The stored table ACLs and account service properties, read through storage::Store and decoded
// (acl_xml.h, service_properties.h); the properties also through a cache. Synchronous, one short
// ReadView per call (ARCHITECTURE.md rule 2).
#pragma once

#include <memory>
#include <string_view>

#include "common/error.h"
#include "server/auth/access_policy.h"
#include "server/auth/sas.h"
#include "server/wire/service_properties.h"
#include "storage/store.h"

namespace malachite::server {

// The SAS `si` lookup over `store` (which must outlive the returned function): the table's ACL as
// the store holds it at request time, so changed or removed policies apply at once; read through
// this thread's cache of the last few, kept while the store's generation has not moved (as
// CachedServiceProperties: Set Table ACL and Delete Table move it). Errors: storage errors,
// kInternalError for an undecodable record (nothing is cached then).
PolicyLookup StoredPolicyLookup(storage::Store& store);

// The policies of `table` (empty when none were set).
Result<SignedIdentifiers> ReadTableAcl(storage::ReadView& view, const storage::TableInfo& table);

// The properties of `account`: the stored ones, or DefaultServiceProperties().
Result<ServiceProperties> ReadServiceProperties(storage::ReadView& view, std::string_view account);

// ReadServiceProperties of `account` in `store` as it is now, from this thread's cache of the last
// few read when the store's generation (storage::StoreGeneration) has not moved since: any catalog
// or settings write (Set Service Properties, a table created or deleted, /-/reset, an account made
// or deleted) makes the next call read again. The properties are shared and immutable. Errors:
// storage errors, kInternalError for an undecodable record (nothing is cached then).
Result<std::shared_ptr<const ServiceProperties>> CachedServiceProperties(storage::Store& store,
                                                                         std::string_view account);

}  // namespace malachite::server
