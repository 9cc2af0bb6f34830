// CORS (spec §11.4): the preflight answer and the headers of actual requests, from an account's
// stored rules. Rules are tried in stored order; the first whose origin and method match is the
// one used, even if its headers then do not match.
#pragma once

#include <string_view>
#include <vector>

#include "common/error.h"
#include "server/http/message.h"
#include "server/wire/service_properties.h"
#include "storage/store.h"

namespace malachite::server {

// The first rule allowing `origin` (exactly, or a `*` rule) and `method` (exactly), or nullptr.
const CorsRule* FindCorsRule(const std::vector<CorsRule>& rules, std::string_view origin,
                             std::string_view method);

// True when every header of the comma list `requested` (case-insensitive, spaces trimmed) is
// allowed by `rule` (a literal, a `prefix*` entry, or `*`).
bool CorsHeadersAllowed(const CorsRule& rule, std::string_view requested);

// Azure: spec §11.4 — answers an OPTIONS preflight in `out` (200, Access-Control-Allow-Origin/
// -Methods/-Headers/-Max-Age, -Credentials for an exact origin). Errors: kInvalidHeaderValue
// "A required CORS header is not present." (no Origin or Access-Control-Request-Method),
// kCorsPreflightFailure (no rules, or the first origin+method match refuses a header).
Result<void> AnswerPreflight(const std::vector<CorsRule>& rules, const Request& request,
                             Response& out);

// Azure: spec §11.4 — adds the CORS headers of an actual request carrying Origin to `out`:
// Allow-Origin and Expose-Headers for a matching rule (plus Allow-Credentials and Vary: Origin
// for an exact origin), only Vary: Origin on GET/HEAD when rules exist but none matches.
void ApplyCorsRules(const std::vector<CorsRule>& rules, const Request& request, Response& out);

// ApplyCorsRules with the stored rules of `account` (CachedServiceProperties: a Set Service
// Properties applies to the next request); does nothing (and reads nothing) when the request has
// no Origin. Storage errors leave the response without CORS headers.
void AddCorsHeaders(const Request& request, std::string_view account, storage::Store& store,
                    Response& out);

}  // namespace malachite::server
