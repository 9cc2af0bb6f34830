#include "server/auth/sas_authorize.h"

#include "common/encoding.h"

namespace malachite::server {
namespace {

std::uint8_t ResourceBit(SasResource resource) {
  switch (resource) {
    case SasResource::kService:
      return kSasService;
    case SasResource::kContainer:
      return kSasContainer;
    case SasResource::kObject:
      return kSasObject;
    case SasResource::kNone:
      break;
  }
  return 0;
}

// The bits of permission letters from the traits table (always valid account letters).
std::uint16_t Bits(std::string_view letters) {
  return ParseSasPermissions(letters, true).value_or(0);
}

Result<void> AuthorizeAccountSas(const SasGrant& grant, Operation op) {
  // Azure: spec §10.7 — the resource type and permissions an account SAS needs (traits table).
  const OperationTraits& traits = TraitsOf(op);
  const std::uint8_t resource = ResourceBit(traits.account_sas_resource);
  if (resource == 0) return Fail(ErrorCode::kAuthorizationFailure);
  if ((grant.resource_types & resource) == 0) {
    return Fail(ErrorCode::kAuthorizationResourceTypeMismatch);
  }
  const std::uint16_t any = Bits(traits.account_sas_any);
  const std::uint16_t all = Bits(traits.account_sas_all);
  const bool any_ok = any == 0 || (grant.permissions & any) != 0;
  const bool all_ok = (grant.permissions & all) == all;
  if (!any_ok || !all_ok) return Fail(ErrorCode::kAuthorizationPermissionMismatch);
  return {};
}

}  // namespace

Result<void> AuthorizeSasOperation(const SasGrant& grant, Operation op, std::string_view table) {
  if (grant.account_sas) return AuthorizeAccountSas(grant, op);
  // Azure: spec §10.8 — a table SAS grants entity operations only (traits table).
  const OperationTraits& traits = TraitsOf(op);
  if (!traits.table_sas_allowed) return Fail(ErrorCode::kAuthorizationFailure);
  const std::uint16_t needed = Bits(traits.table_sas_needs);
  // Azure: spec §10.8 — the request's table must be `tn` (case-insensitively). A $batch URL
  // names no table; its operations are checked one by one.
  if (op != Operation::kBatch && !AsciiIEquals(table, grant.table)) {
    return Fail(ErrorCode::kAuthorizationFailure);
  }
  if ((grant.permissions & needed) != needed) {
    return Fail(ErrorCode::kAuthorizationPermissionMismatch);
  }
  return {};
}

Result<void> AuthorizeSasEntity(const SasGrant* grant, Operation op, std::string_view table,
                                std::string_view pk, std::string_view rk) {
  if (grant == nullptr) return {};
  if (auto ok = AuthorizeSasOperation(*grant, op, table); !ok) return ok;
  // Azure: spec §10.8 — a point operation outside the key range is refused with 403.
  if (grant->range && !RangeContains(*grant->range, pk, rk)) {
    return Fail(ErrorCode::kAuthorizationFailure);
  }
  return {};
}

std::optional<KeyRange> SasKeyRange(const SasToken& token) {
  if (token.spk.empty() && token.epk.empty()) return std::nullopt;
  KeyRange range;
  // spk alone: pk >= spk; spk+srk: (pk, rk) >= (spk, srk). epk alone: pk <= epk; epk+erk:
  // (pk, rk) <= (epk, erk). All inclusive, ordinal.
  if (!token.spk.empty()) {
    range.lower =
        KeyBound{std::string(token.spk),
                 token.srk.empty() ? std::nullopt : std::optional<std::string>(token.srk), true};
  }
  if (!token.epk.empty()) {
    range.upper =
        KeyBound{std::string(token.epk),
                 token.erk.empty() ? std::nullopt : std::optional<std::string>(token.erk), true};
  }
  return range;
}

}  // namespace malachite::server
