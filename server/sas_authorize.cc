// What a verified SAS allows (spec §10.7 table of operations, §10.8 permissions and key ranges).
#include "common/encoding.h"
#include "server/sas.h"

namespace malachite::server {
namespace {

// Azure: spec §10.7 — the resource type and permissions an account SAS needs per operation.
// `any` of the letters suffices unless `all` is set (then every letter of `all` is needed).
struct AccountRule {
  std::uint8_t resource_type = 0;  // 0: not delegable
  std::uint16_t any = 0;
  std::uint16_t all = 0;
};

AccountRule AccountRuleFor(Operation op) {
  switch (op) {
    case Operation::kGetServiceProperties:
    case Operation::kGetServiceStats:
      return {kSasService, kSasRead, 0};
    case Operation::kSetServiceProperties:
      return {kSasService, kSasWrite, 0};
    case Operation::kQueryTables:
    case Operation::kGetTable:
      return {kSasContainer, kSasList, 0};
    case Operation::kCreateTable:
      // Azure: spec §15 #6 — docs name `a` or `w`, Azurite `c` or `w`: any of the three.
      return {kSasContainer, kSasAdd | kSasCreate | kSasWrite, 0};
    case Operation::kDeleteTable:
      return {kSasContainer, kSasDelete, 0};
    case Operation::kQueryEntities:
    case Operation::kGetEntity:
      return {kSasObject, kSasRead, 0};
    case Operation::kInsertEntity:
      return {kSasObject, kSasAdd, 0};
    case Operation::kInsertOrReplaceEntity:
    case Operation::kInsertOrMergeEntity:
      // Azure: spec §15 #7 — upserts need both add and update.
      return {kSasObject, 0, kSasAdd | kSasUpdate};
    case Operation::kUpdateEntity:
    case Operation::kMergeEntity:
      return {kSasObject, kSasUpdate, 0};
    case Operation::kDeleteEntity:
      return {kSasObject, kSasDelete, 0};
    case Operation::kBatch:
      return {kSasObject, 0, 0};  // each operation is checked on its own
    default:
      return {};  // ACL operations: account owner only (spec §10.7)
  }
}

// Azure: spec §10.8 — a table SAS grants entity operations only; nullopt when not delegable.
std::optional<std::uint16_t> TablePermissionsFor(Operation op) {
  switch (op) {
    case Operation::kQueryEntities:
    case Operation::kGetEntity:
      return kSasRead;
    case Operation::kInsertEntity:
      return kSasAdd;
    case Operation::kInsertOrReplaceEntity:
    case Operation::kInsertOrMergeEntity:
      return kSasAdd | kSasUpdate;
    case Operation::kUpdateEntity:
    case Operation::kMergeEntity:
      return kSasUpdate;
    case Operation::kDeleteEntity:
      return kSasDelete;
    case Operation::kBatch:
      return 0;
    default:
      return std::nullopt;
  }
}

Result<void> AuthorizeAccountSas(const SasGrant& grant, Operation op) {
  const AccountRule rule = AccountRuleFor(op);
  if (rule.resource_type == 0) return Fail(ErrorCode::kAuthorizationFailure);
  if ((grant.resource_types & rule.resource_type) == 0) {
    return Fail(ErrorCode::kAuthorizationResourceTypeMismatch);
  }
  const bool any_ok = rule.any == 0 || (grant.permissions & rule.any) != 0;
  const bool all_ok = (grant.permissions & rule.all) == rule.all;
  if (!any_ok || !all_ok) return Fail(ErrorCode::kAuthorizationPermissionMismatch);
  return {};
}

}  // namespace

Result<void> AuthorizeSasOperation(const SasGrant& grant, Operation op, std::string_view table) {
  if (grant.account_sas) return AuthorizeAccountSas(grant, op);
  const auto needed = TablePermissionsFor(op);
  if (!needed) return Fail(ErrorCode::kAuthorizationFailure);
  // Azure: spec §10.8 — the request's table must be `tn` (case-insensitively). A $batch URL
  // names no table; its operations are checked one by one.
  if (op != Operation::kBatch && !AsciiIEquals(table, grant.table)) {
    return Fail(ErrorCode::kAuthorizationFailure);
  }
  if ((grant.permissions & *needed) != *needed) {
    return Fail(ErrorCode::kAuthorizationPermissionMismatch);
  }
  return {};
}

Result<void> AuthorizeSasEntity(const SasGrant* grant, Operation op, std::string_view table,
                                std::string_view pk, std::string_view rk) {
  if (grant == nullptr) return {};
  if (auto ok = AuthorizeSasOperation(*grant, op, table); !ok) return ok;
  // Azure: spec §10.8 — a point operation outside the key range is refused with 403.
  if (grant->range && !odata::RangeContains(*grant->range, pk, rk)) {
    return Fail(ErrorCode::kAuthorizationFailure);
  }
  return {};
}

std::optional<odata::PlanRange> SasKeyRange(const SasToken& token) {
  if (token.spk.empty() && token.epk.empty()) return std::nullopt;
  odata::PlanRange range;
  // spk alone: pk >= spk; spk+srk: (pk, rk) >= (spk, srk). epk alone: pk <= epk; epk+erk:
  // (pk, rk) <= (epk, erk). All inclusive, ordinal.
  if (!token.spk.empty()) {
    range.lower = odata::PlanBound{
        std::string(token.spk),
        token.srk.empty() ? std::nullopt : std::optional<std::string>(token.srk), true};
  }
  if (!token.epk.empty()) {
    range.upper = odata::PlanBound{
        std::string(token.epk),
        token.erk.empty() ? std::nullopt : std::optional<std::string>(token.erk), true};
  }
  return range;
}

}  // namespace malachite::server
