// Rendering an Error as the Azure Table service answers it (spec §8.1): JSON `odata.error`,
// the OData XML `m:error`, or the storage-wide XML `<Error>`.
#pragma once

#include <string_view>

#include "common/edm.h"
#include "common/error.h"
#include "server/http/message.h"
#include "server/http/route.h"

namespace malachite::server {

enum class ErrorFormat {
  kJson,       // {"odata.error":{...}} — OData operations whose client accepts JSON
  kODataXml,   // <m:error> — table-level XML operations (?comp=acl), OData ops asking for XML
  kStorageXml  // <Error><Code> — service-level operations and authentication failures on them
};

// Azure: spec §8.1 — picks the error body format. `route` is nullptr when routing failed.
// JSON when any Accept (or $format) entry is application/json; with no Accept at all, JSON for
// OData operations and unroutable requests, XML for ACL/service/preflight operations.
ErrorFormat ChooseErrorFormat(const Request& request, const Route* route, const Error& error);

// Replaces `out`'s status, body and Content-Type with the error, and sets x-ms-error-code.
// message.value / <Message> is the user message + "\nRequestId:<id>\nTime:<now, 7 digits>";
// for kAuthenticationFailed and kInvalidAuthenticationInfoBearer the XML forms add
// <AuthenticationErrorDetail> from error.detail.
// Other headers of `out` are kept (e.g. Preference-Applied set by a handler).
void RenderError(const Error& error, ErrorFormat format, std::string_view request_id, DateTime now,
                 Response& out);

}  // namespace malachite::server
