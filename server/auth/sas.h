// Shared access signatures (spec §10.7–10.8): the account SAS and the table (service) SAS —
// parsing the query parameters, the string-to-sign, verification against the account keys and a
// table's stored access policies, and the authorization of an operation by what a verified token
// grants (permissions, resource types, table, PartitionKey/RowKey range).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/edm.h"
#include "common/error.h"
#include "common/key_range.h"
#include "server/auth/access_policy.h"
#include "server/auth/shared_key.h"
#include "server/http/message.h"
#include "server/http/route.h"

namespace malachite::server {

// The SAS parameters of a request (percent-decoded views into the Route's QueryParams; they live
// as long as the route). An absent parameter is an empty view and `present` lacks its bit.
struct SasToken {
  std::string_view sv, ss, srt, sp, st, se, sip, spr, ses, sig;
  std::string_view tn, si, spk, srk, epk, erk;
  bool has_tn = false, has_ss = false, has_srt = false;

  // Azure: spec §10.8 — a token naming a table (`tn`) is a table SAS; otherwise it is an account
  // SAS (`ss`/`srt`).
  bool IsTableSas() const { return has_tn; }
};

// The SAS parameters of `query` (which must hold `sig`).
SasToken ParseSasToken(const QueryParams& query);

// Azure: spec §10.7 — account \n sp \n ss \n srt \n st \n se \n sip \n spr \n sv \n, plus ses \n
// from sv 2020-12-06. Fields exactly as received (decoded).
std::string AccountSasStringToSign(std::string_view account, const SasToken& token);

// Azure: spec §10.8 — sp \n st \n se \n /table/<account>/<lower(tn)> \n si \n sip \n spr \n sv \n
// spk \n srk \n epk \n erk (no trailing newline); before sv 2015-04-05 without sip/spr, before
// 2015-02-21 the resource lacks the "/table" prefix.
std::string TableSasStringToSign(std::string_view account, const SasToken& token);

// Permission letters as bits.
enum SasPermission : std::uint16_t {
  kSasRead = 1 << 0,     // r
  kSasAdd = 1 << 1,      // a
  kSasUpdate = 1 << 2,   // u
  kSasDelete = 1 << 3,   // d
  kSasWrite = 1 << 4,    // w (account)
  kSasList = 1 << 5,     // l (account)
  kSasCreate = 1 << 6,   // c (account)
  kSasProcess = 1 << 7,  // p (account; no table meaning)
};

// The permission letters of `sp` as bits. Azure: spec §10.7–10.8 — table SAS "raud", account SAS
// "rwdlacup" (newer versions add letters for other services, accepted and ignored). Any order is
// accepted; the signature covers the text as sent. nullopt on an unknown letter.
std::optional<std::uint16_t> ParseSasPermissions(std::string_view text, bool account);

// Account SAS resource types (`srt`).
enum SasResourceType : std::uint8_t {
  kSasService = 1,    // s
  kSasContainer = 2,  // c (tables)
  kSasObject = 4,     // o (entities)
};

// What a verified token allows.
struct SasGrant {
  bool account_sas = false;
  std::uint16_t permissions = 0;    // SasPermission bits
  std::uint8_t resource_types = 0;  // account SAS only
  std::string table;                // table SAS: `tn` as signed
  std::optional<KeyRange> range;    // table SAS with spk/srk/epk/erk: the keys allowed
  std::string version;              // `sv`, the processing version of the request
};

// Finds stored access policy `id` of table `table` of `account` at request time (so policies
// changed or removed after a token was issued apply at once). nullopt when the table or the id
// does not exist.
using PolicyLookup = std::function<Result<std::optional<AccessPolicy>>(
    std::string_view account, std::string_view table, std::string_view id)>;

// Verifies `token` for `account` (keys: key1, key2) at `now` over `request`: version, signature,
// stored policy (`si`, looked up with `lookup`), time window, IP (`sip` against
// request.remote_address) and protocol (`spr` against request.secure).
// Errors (Azure: spec §10.7–10.8), error.detail holding the service's AuthenticationErrorDetail:
//   kAuthenticationFailed — malformed or missing fields, unknown version, bad signature, unknown
//     `si`, a field both in the token and the policy, outside the time window;
//   kAuthorizationServiceMismatch — account SAS whose `ss` lacks `t`;
//   kAuthorizationSourceIPMismatch, kAuthorizationProtocolMismatch.
Result<SasGrant> VerifySas(const SasToken& token, std::string_view account,
                           const std::vector<HmacSha256Key>& keys, const Request& request,
                           DateTime now, const PolicyLookup& lookup);

// Azure: spec §10.8 "Key-range enforcement" — the keys spk/srk/epk/erk allow, as a KeyRange:
// lower (spk, srk) inclusive or partition spk start; upper (epk, erk) inclusive or partition epk
// end. nullopt when the token has no range.
std::optional<KeyRange> SasKeyRange(const SasToken& token);

}  // namespace malachite::server
