// The Table ACL XML of Get/Set Table ACL (spec §11.1) and its stored form (storage/FORMAT.md,
// "settings").
#pragma once

#include <string>
#include <string_view>

#include "common/error.h"
#include "server/auth/access_policy.h"

namespace malachite::server {

// Azure: spec §11.1 — at most 5 signed identifiers per table, Ids up to 64 characters.
inline constexpr std::size_t kMaxSignedIdentifiers = 5;
inline constexpr std::size_t kMaxSignedIdentifierLength = 64;

// Parses a Set Table ACL body. An empty (or blank) body and `<SignedIdentifiers/>` are the empty
// list. Errors: kInvalidXmlDocument (malformed XML, wrong or repeated elements, more than 5
// identifiers, a missing/empty/too long/duplicate Id, permission letters outside "raud", a
// Start/Expiry not in a signed time form).
Result<SignedIdentifiers> ParseAclXml(std::string_view body);

// The Get Table ACL body: dates as yyyy-MM-ddTHH:mm:ss.fffffffZ, no <AccessPolicy> element for
// an identifier whose policy has no field; the empty list is
// `<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers />`.
std::string RenderAclXml(const SignedIdentifiers& identifiers);

// The record stored per table: version byte 01 + RenderAclXml.
std::string EncodeAclRecord(const SignedIdentifiers& identifiers);
// Errors: kInternalError for a record this build did not write.
Result<SignedIdentifiers> DecodeAclRecord(std::string_view record);

}  // namespace malachite::server
