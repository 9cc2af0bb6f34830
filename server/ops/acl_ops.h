// Get Table ACL and Set Table ACL (spec §4.13–4.14, §11.1).
#pragma once

#include "server/ops/handler.h"

namespace malachite::server {

// Azure: spec §4.13 — 200, application/xml, the stored policies (acl_xml.h), read by the
// Outcome's `read`. Its errors: kTableNotFound.
Result<Outcome> HandleGetTableAcl(const RequestContext& ctx);

// Azure: spec §4.14 — replaces every policy of the table; 204 once durable. Errors:
// kRequestBodyTooLarge (over 10 000 bytes), ParseAclXml errors, kTableNotFound.
Result<Outcome> HandleSetTableAcl(const RequestContext& ctx);

}  // namespace malachite::server
