// Emptying or deleting an account inside a write: the tables of one account removed in
// O(tables), whatever their size (their entities go to the background reclaimer,
// storage/FORMAT.md "reclaim").
#pragma once

#include <cstddef>
#include <string_view>

#include "common/error.h"
#include "storage/store.h"

namespace malachite::storage {

// Deletes every table of `account` (and with it its ACL) in the transaction of `ctx`, as
// WriteContext::DeleteTable does one by one, and returns how many there were. Service
// properties are kept. REQUIRES: `ctx` is the WriteContext a WriteFn was given (the store's
// own). Errors: those of the catalog (kInternalError, kInsufficientAccountResources).
Result<std::size_t> DeleteAccountTables(WriteContext& ctx, std::string_view account);

// Deletes everything stored under `account` in the transaction of `ctx`: its tables (as
// DeleteAccountTables), its service properties and its run-time account record
// (WriteContext::DeleteRuntimeAccount). An account with none of them is not an error, so this is
// also how a name is cleared before an account is made under it again. REQUIRES: as
// DeleteAccountTables. Errors: those of DeleteAccountTables and of DeleteRuntimeAccount
// (kInternalError).
Result<void> DeleteAccount(WriteContext& ctx, std::string_view account);

}  // namespace malachite::storage
