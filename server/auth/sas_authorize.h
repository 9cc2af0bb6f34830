// What a verified shared access signature allows (spec §10.7 table of operations, §10.8
// permissions and key ranges), from the operation traits table (common/operation.h).
#pragma once

#include <string_view>

#include "common/error.h"
#include "common/operation.h"
#include "server/auth/sas.h"

namespace malachite::server {

// Checks that `grant` allows operation `op` on table `table` (empty for service operations).
// $batch is allowed here; its operations are checked one by one with AuthorizeSasEntity.
// Errors: kAuthorizationFailure (operation not delegable, another table),
// kAuthorizationResourceTypeMismatch (account SAS `srt`), kAuthorizationPermissionMismatch.
Result<void> AuthorizeSasOperation(const SasGrant& grant, Operation op, std::string_view table);

// For an entity operation with keys (pk, rk): AuthorizeSasOperation, then the key range.
// `grant` may be null (not a SAS request: allowed). Errors: those of AuthorizeSasOperation;
// kAuthorizationFailure when (pk, rk) is outside the range.
Result<void> AuthorizeSasEntity(const SasGrant* grant, Operation op, std::string_view table,
                                std::string_view pk, std::string_view rk);

// The key range alone: kAuthorizationFailure when (pk, rk) is outside `grant`'s range, its detail
// naming the keys and the range (common/refusal.h kSasKeyRange). Allowed without a range.
Result<void> AuthorizeSasKeys(const SasGrant& grant, std::string_view pk, std::string_view rk);

// Get Entity's key range check: kResourceNotFound (not a refusal: the entity is invisible, spec
// §10.8) when (pk, rk) is outside the range of `grant`, with the same detail. Allowed when
// `grant` is null or has no range.
Result<void> SasPointReadInRange(const SasGrant* grant, std::string_view pk, std::string_view rk);

}  // namespace malachite::server
