// The multipart/mixed body of an entity group transaction (spec §7.2): a batch part holding one
// changeset (or one GET), each changeset part an application/http request. Parses untrusted
// bytes: every failure is an Error, never a crash, and work is bounded by the body size.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "server/http/message.h"

namespace malachite::server {

// Azure: spec §7.1 — at most 100 operations in a changeset.
inline constexpr std::size_t kMaxBatchOperations = 100;

// One body part of a multipart entity. Views into the parsed body: they live as long as it.
struct MultipartPart {
  std::vector<std::pair<std::string_view, std::string_view>> headers;  // name, trimmed value
  std::string_view content;  // between the header block's blank line and the next delimiter
  // The first header named `name` (case-insensitive), or nullopt.
  std::optional<std::string_view> Find(std::string_view name) const;
};

// The `boundary` parameter of a multipart/* Content-Type value, quotes removed. Parameters may
// come in any order, with or without spaces around ';' and '=' (spec §7.2 table). Errors:
// kInvalidInput when the type is not multipart/mixed or has no (or an empty) boundary.
Result<std::string_view> MultipartBoundary(std::string_view content_type);

// Splits `body` at the delimiter lines "--<boundary>" (RFC 2046): the preamble before the first
// and the epilogue after the close delimiter "--<boundary>--" are ignored, lines may end in CRLF
// or bare LF, transport padding after a delimiter is allowed, a part's headers end at its first
// blank line. At most `max_parts` parts are returned; `*truncated` (when given) says more
// followed. Errors: kInvalidInput (no delimiter, no close delimiter, a header line without ':').
Result<std::vector<MultipartPart>> SplitMultipart(std::string_view body, std::string_view boundary,
                                                  std::size_t max_parts, bool* truncated = nullptr);
// The same into `parts`, whose elements are overwritten in place (their header vectors keep
// their capacity). On an error `parts` holds partial parts.
Result<void> SplitMultipart(std::string_view body, std::string_view boundary, std::size_t max_parts,
                            std::vector<MultipartPart>& parts, bool* truncated = nullptr);

// Parses an application/http part: request line "METHOD URL HTTP/1.1", headers, blank line,
// body. Leading blank lines are skipped and the body is trimmed of surrounding whitespace (the JS
// SDK sends an extra CRLF before it, spec §7.2). Errors: kInvalidInput.
Result<Request> ParseEmbeddedRequest(std::string_view content);
// The same into `out`, whose strings are overwritten (keeping their capacity). On an error `out`
// holds a partial request.
Result<void> ParseEmbeddedRequest(std::string_view content, Request& out);

// One operation of a batch: the embedded request and the Content-ID of its part, if any.
struct BatchOperation {
  Request request;
  std::optional<std::string> content_id;
};

// A decoded $batch body.
struct BatchBody {
  // True when the operations came in a changeset; false for the lone GET (spec §7.1).
  bool changeset = false;
  std::vector<BatchOperation> operations;  // at most kMaxBatchOperations
  bool too_many_operations = false;        // the changeset held more than kMaxBatchOperations
  // The batch part and the changeset's parts, kept only so that a reused BatchBody splits the
  // next body without allocating. Views into the last parsed body: read them only while it lives.
  std::vector<MultipartPart> outer_parts;
  std::vector<MultipartPart> changeset_parts;
};

// Decodes a $batch request body given its Content-Type (spec §7.2): exactly one batch part,
// either a multipart/mixed changeset of application/http parts or a single application/http
// request. Errors: kInvalidInput (not multipart, no boundary, malformed framing, no or several
// batch parts, a part that is not an HTTP request).
Result<BatchBody> ParseBatchBody(std::string_view content_type, std::string_view body);
// The same into `out`, whose operations are overwritten in place (keeping their strings'
// capacity: a caller that reuses one BatchBody decodes without allocating once warm). On an
// error `out` holds partial operations.
Result<void> ParseBatchBody(std::string_view content_type, std::string_view body, BatchBody& out);

}  // namespace malachite::server
