#include "server/auth/sas_authorize.h"

#include "common/encoding.h"
#include "common/refusal.h"

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

// The letters of `bits` in the order of SasPermission ("raudwlcp") or SasResourceType ("sco").
std::string Letters(std::uint16_t bits, std::string_view order) {
  std::string letters;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if ((bits & (1u << i)) != 0) letters.push_back(order[i]);
  }
  return letters;
}

constexpr std::string_view kPermissionOrder = "raudwlcp";
constexpr std::string_view kResourceOrder = "sco";

// Error::detail of a refusal (common/refusal.h): "needs 'a', grants 'r'" (design advisor).
Error Lacks(ErrorCode code, Refusal rule, std::string_view needs, std::string_view grants) {
  std::string specifics = "needs ";
  specifics.append(needs).append(", grants '").append(grants).append("'");
  return Error{code, {}, RefusalDetail(rule, specifics)};
}

Error LacksPermission(std::string_view needs, std::uint16_t granted) {
  return Lacks(ErrorCode::kAuthorizationPermissionMismatch, Refusal::kSasPermission, needs,
               Letters(granted, kPermissionOrder));
}

std::string Quoted(std::string_view letters) { return "'" + std::string(letters) + "'"; }

// "PartitionKey 'a'" or "PartitionKey 'a', RowKey 'b'" of a bound of a SAS key range.
std::string BoundText(const KeyBound& bound) {
  std::string text = "PartitionKey '" + bound.partition_key + "'";
  if (bound.row_key) text += ", RowKey '" + *bound.row_key + "'";
  return text;
}

Result<void> AuthorizeAccountSas(const SasGrant& grant, Operation op) {
  // Azure: spec §10.7 — the resource type and permissions an account SAS needs (traits table).
  const OperationTraits& traits = TraitsOf(op);
  const std::uint8_t resource = ResourceBit(traits.account_sas_resource);
  if (resource == 0) return Fail(ErrorCode::kAuthorizationFailure);
  if ((grant.resource_types & resource) == 0) {
    return tl::unexpected(Lacks(
        ErrorCode::kAuthorizationResourceTypeMismatch, Refusal::kSasResourceType,
        Quoted(Letters(resource, kResourceOrder)), Letters(grant.resource_types, kResourceOrder)));
  }
  const std::uint16_t any = Bits(traits.account_sas_any);
  const std::uint16_t all = Bits(traits.account_sas_all);
  if ((grant.permissions & all) != all) {
    return tl::unexpected(LacksPermission(
        Quoted(Letters(all & ~grant.permissions, kPermissionOrder)), grant.permissions));
  }
  if (any != 0 && (grant.permissions & any) == 0) {
    return tl::unexpected(
        LacksPermission("one of " + Quoted(Letters(any, kPermissionOrder)), grant.permissions));
  }
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
    return tl::unexpected(LacksPermission(
        Quoted(Letters(needed & ~grant.permissions, kPermissionOrder)), grant.permissions));
  }
  return {};
}

Result<void> AuthorizeSasEntity(const SasGrant* grant, Operation op, std::string_view table,
                                std::string_view pk, std::string_view rk) {
  if (grant == nullptr) return {};
  if (auto ok = AuthorizeSasOperation(*grant, op, table); !ok) return ok;
  // Azure: spec §10.8 — a point operation outside the key range is refused with 403.
  return AuthorizeSasKeys(*grant, pk, rk);
}

// The refusal detail of keys outside `range` (common/refusal.h kSasKeyRange).
std::string OutOfRangeDetail(const KeyRange& range, std::string_view pk, std::string_view rk) {
  std::string specifics = "PartitionKey '" + std::string(pk) + "', RowKey '" + std::string(rk) +
                          "' is not within " + (range.lower ? BoundText(*range.lower) : "-inf") +
                          " .. " + (range.upper ? BoundText(*range.upper) : "+inf");
  return RefusalDetail(Refusal::kSasKeyRange, specifics);
}

Result<void> AuthorizeSasKeys(const SasGrant& grant, std::string_view pk, std::string_view rk) {
  if (!grant.range || RangeContains(*grant.range, pk, rk)) return {};
  return Fail(ErrorCode::kAuthorizationFailure, {}, OutOfRangeDetail(*grant.range, pk, rk));
}

Result<void> SasPointReadInRange(const SasGrant* grant, std::string_view pk, std::string_view rk) {
  if (grant == nullptr || !grant->range || RangeContains(*grant->range, pk, rk)) return {};
  // Azure: spec §10.8 — the service reads a point under a SAS as a query narrowed to the key
  // range: outside it the entity is not found (the .NET SDK's
  // ValidateSasCredentialsWithRowKeyAndPartitionKeyRanges), where a write is refused with 403.
  return Fail(ErrorCode::kResourceNotFound, {}, OutOfRangeDetail(*grant->range, pk, rk));
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
