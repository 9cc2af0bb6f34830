// The account-level operations (spec §4.15–4.17): Get/Set Table Service Properties, Get Table
// Service Stats, and the CORS preflight.
#pragma once

#include "server/ops/handler.h"

namespace malachite::server {

// Azure: spec §4.15 — 200, application/xml, the stored (or default) properties, read by the
// Outcome's `read`.
Result<Outcome> HandleGetServiceProperties(const RequestContext& ctx);

// Azure: spec §4.15 — applies the elements present in the body to the stored properties
// (atomically, inside the write); 202 Accepted once durable. Errors: ParseServicePropertiesXml.
Result<Outcome> HandleSetServiceProperties(const RequestContext& ctx);

// Azure: spec §4.16, §11.3 — on the secondary endpoint (the router refuses the primary):
// 200 with GeoReplication Status `live` and LastSyncTime now (a single-copy emulator is always
// in sync).
Result<Outcome> HandleGetServiceStats(const RequestContext& ctx);

// Azure: spec §4.17, §11.4 — the Outcome's `read`: AnswerPreflight with the account's stored CORS
// rules.
Result<Outcome> HandlePreflight(const RequestContext& ctx);

}  // namespace malachite::server
