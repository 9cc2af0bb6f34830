// Multipart/mixed framing for $batch (spec §7.2, RFC 2046 §5.1). Hand-written scanning over
// string_views: the body is split without copying, only the embedded requests are materialized.
// Leniency is deliberate and matches what the SDKs send: CRLF or bare LF, padding after
// delimiters, blank lines before a request line or body, any header-name case.
#include "server/wire/multipart.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "common/encoding.h"

namespace malachite::server {
namespace {

tl::unexpected<Error> Malformed(std::string detail) {
  return Fail(ErrorCode::kInvalidInput, {}, std::move(detail));
}

bool IsSpace(char c) { return c == ' ' || c == '\t'; }
bool IsWhite(char c) { return IsSpace(c) || c == '\r' || c == '\n'; }

std::string_view Trim(std::string_view text) {
  while (!text.empty() && IsWhite(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsWhite(text.back())) text.remove_suffix(1);
  return text;
}

// Takes the next line off `text` (without its CRLF or LF); false when `text` is empty.
bool NextLine(std::string_view& text, std::string_view& line) {
  if (text.empty()) return false;
  const std::size_t lf = text.find('\n');
  line = text.substr(0, lf);
  text = lf == std::string_view::npos ? std::string_view{} : text.substr(lf + 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return true;
}

bool IsBlank(std::string_view line) { return Trim(line).empty(); }

bool StartsWithIgnoreCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && AsciiIEquals(text.substr(0, prefix.size()), prefix);
}

// A delimiter line found in a body: [start, next) covers "--boundary[--]" up to the line end.
struct Delimiter {
  std::size_t start = std::string_view::npos;  // npos: none found
  std::size_t next = 0;                        // first byte after the delimiter line
  bool close = false;                          // "--boundary--"
};

// Finds the delimiter lines of one boundary. A delimiter starts a line with "--": memchr jumps
// from '-' to '-' (a part's headers hold a few, its entity body usually none), and a dash that
// does not start a line fails at once. Visiting every line start instead costs a memchr per line.
class DelimiterFinder {
 public:
  explicit DelimiterFinder(std::string_view boundary) : dash_boundary_("--") {
    dash_boundary_.append(boundary);
  }

  // The first delimiter line at or after `from`: "--boundary" at the start of a line, followed
  // by "--" (close) or by optional padding and the line end.
  Delimiter Next(std::string_view body, std::size_t from) const {
    for (std::size_t at = Find(body, from); at != std::string_view::npos; at = Find(body, at + 1)) {
      std::size_t pos = at + dash_boundary_.size();
      if (body.substr(pos, 2) == "--") {
        const std::size_t lf = body.find('\n', pos);
        return {at, lf == std::string_view::npos ? body.size() : lf + 1, true};
      }
      while (pos < body.size() && (IsSpace(body[pos]) || body[pos] == '\r')) ++pos;
      if (pos == body.size()) return {at, pos, false};
      if (body[pos] == '\n') return {at, pos + 1, false};
    }
    return {};
  }

 private:
  // The first "--boundary" at or after `from` that starts a line (at 0 or after '\n'), or npos.
  std::size_t Find(std::string_view body, std::size_t from) const {
    while (from < body.size()) {
      const void* dash = std::memchr(body.data() + from, '-', body.size() - from);
      if (dash == nullptr) return std::string_view::npos;
      const auto at = static_cast<std::size_t>(static_cast<const char*>(dash) - body.data());
      if ((at == 0 || body[at - 1] == '\n') &&
          body.substr(at, dash_boundary_.size()) == dash_boundary_) {
        return at;
      }
      from = at + 1;
    }
    return std::string_view::npos;
  }

  std::string dash_boundary_;
};

// Splits a part into its header block and content, into `part` (its headers are replaced).
Result<void> ParsePart(std::string_view raw, MultipartPart& part) {
  part.headers.clear();
  part.headers.reserve(4);
  std::string_view line;
  std::string_view rest = raw;
  while (NextLine(rest, line)) {
    if (IsBlank(line)) break;
    if (IsSpace(line.front())) continue;  // obsolete folding: keep the first line's value
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return Malformed("part header without ':'");
    part.headers.emplace_back(Trim(line.substr(0, colon)), Trim(line.substr(colon + 1)));
  }
  part.content = rest;
  return {};
}

Result<std::string_view> ChangesetBoundaryOrEmpty(const MultipartPart& part) {
  const auto type = part.Find("Content-Type");
  if (!type || !StartsWithIgnoreCase(Trim(*type), "multipart/")) return std::string_view{};
  return MultipartBoundary(*type);
}

// A part that must carry an HTTP request: application/http (or no Content-Type at all),
// decoded into `out` (reusing its strings).
Result<void> ParseOperationPart(const MultipartPart& part, BatchOperation& out) {
  if (const auto type = part.Find("Content-Type");
      type && !StartsWithIgnoreCase(Trim(*type), "application/http")) {
    return Malformed("batch part is not application/http");
  }
  if (auto ok = ParseEmbeddedRequest(part.content, out.request); !ok) return ok;
  // Content-ID sits in the part headers (Python, docs) or, from the legacy node SDK, among the
  // embedded request's headers (spec §7.2); either is echoed.
  auto id = part.Find("Content-ID");
  if (!id) id = out.request.Find("Content-ID");
  if (!id) {
    out.content_id.reset();
  } else if (out.content_id) {
    out.content_id->assign(*id);
  } else {
    out.content_id.emplace(*id);
  }
  return {};
}

}  // namespace

std::optional<std::string_view> MultipartPart::Find(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (AsciiIEquals(key, name)) return value;
  }
  return std::nullopt;
}

Result<std::string_view> MultipartBoundary(std::string_view content_type) {
  std::string_view rest = content_type;
  const std::size_t semi = rest.find(';');
  if (!AsciiIEquals(Trim(rest.substr(0, semi)), "multipart/mixed")) {
    return Malformed("Content-Type is not multipart/mixed");
  }
  while (true) {
    const std::size_t at = rest.find(';');
    if (at == std::string_view::npos) break;
    rest = rest.substr(at + 1);
    std::string_view param = rest.substr(0, rest.find(';'));
    const std::size_t eq = param.find('=');
    if (eq == std::string_view::npos || !AsciiIEquals(Trim(param.substr(0, eq)), "boundary")) {
      continue;
    }
    std::string_view value = Trim(param.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    // RFC 2046: 1..70 characters; longer ones are tolerated, but never empty.
    if (value.empty()) break;
    return value;
  }
  return Malformed("multipart Content-Type without a boundary");
}

Result<std::vector<MultipartPart>> SplitMultipart(std::string_view body, std::string_view boundary,
                                                  std::size_t max_parts, bool* truncated) {
  std::vector<MultipartPart> parts;
  if (auto ok = SplitMultipart(body, boundary, max_parts, parts, truncated); !ok) {
    return tl::unexpected(ok.error());
  }
  return parts;
}

Result<void> SplitMultipart(std::string_view body, std::string_view boundary, std::size_t max_parts,
                            std::vector<MultipartPart>& parts, bool* truncated) {
  if (truncated != nullptr) *truncated = false;
  const DelimiterFinder delimiters(boundary);
  Delimiter delimiter = delimiters.Next(body, 0);
  if (delimiter.start == std::string_view::npos) return Malformed("no multipart delimiter");
  std::size_t count = 0;
  while (!delimiter.close) {
    const std::size_t begin = delimiter.next;
    delimiter = delimiters.Next(body, begin);
    if (delimiter.start == std::string_view::npos) return Malformed("no close delimiter");
    if (count == max_parts) {
      if (truncated != nullptr) *truncated = true;
      break;
    }
    // The line break before a delimiter belongs to the delimiter (RFC 2046).
    std::size_t end = delimiter.start;
    if (end > begin && body[end - 1] == '\n') --end;
    if (end > begin && body[end - 1] == '\r') --end;
    // Existing parts are overwritten in place: their header vectors keep their capacity.
    if (count == parts.size()) parts.emplace_back();
    if (auto ok = ParsePart(body.substr(begin, end - begin), parts[count]); !ok) return ok;
    ++count;
  }
  parts.resize(count);
  return {};
}

Result<Request> ParseEmbeddedRequest(std::string_view content) {
  Request request;
  if (auto ok = ParseEmbeddedRequest(content, request); !ok) return tl::unexpected(ok.error());
  return request;
}

Result<void> ParseEmbeddedRequest(std::string_view content, Request& out) {
  std::string_view rest = content;
  std::string_view line;
  do {
    if (!NextLine(rest, line)) return Malformed("batch part without a request line");
  } while (IsBlank(line));
  // Request line: METHOD SP request-target SP HTTP-version, with any run of spaces or tabs.
  // Everything between the method and the version is the target, so a key with an unencoded
  // space still reaches the router as one target.
  const std::string_view request_line = Trim(line);
  std::size_t method_end = 0;
  while (method_end < request_line.size() && !IsSpace(request_line[method_end])) ++method_end;
  std::size_t version_start = request_line.size();
  while (version_start > method_end && !IsSpace(request_line[version_start - 1])) --version_start;
  const std::string_view method = request_line.substr(0, method_end);
  const std::string_view target = Trim(request_line.substr(method_end, version_start - method_end));
  const std::string_view version = request_line.substr(version_start);
  if (method.empty() || target.empty() || !version.starts_with("HTTP/")) {
    return Malformed("malformed request line in a batch part");
  }
  for (char c : method) {
    if (c < 'A' || c > 'Z') return Malformed("malformed method in a batch part");
  }
  out.method.assign(method);
  out.target.assign(target);
  out.remote_address.clear();
  out.secure = false;
  // SDK parts carry 3 to 6 headers: one allocation instead of a growth step per header.
  out.headers.reserve(8);
  std::size_t count = 0;
  while (NextLine(rest, line) && !IsBlank(line)) {
    if (IsSpace(line.front())) continue;  // obsolete folding
    const std::size_t colon = line.find(':');
    const std::string_view name =
        colon == std::string_view::npos ? "" : Trim(line.substr(0, colon));
    if (name.empty()) return Malformed("request header without a name in a batch part");
    if (count == out.headers.size()) out.headers.emplace_back();
    Header& header = out.headers[count++];
    header.name.assign(name);
    header.value.assign(Trim(line.substr(colon + 1)));
  }
  out.headers.resize(count);
  out.body.assign(Trim(rest));
  return {};
}

Result<BatchBody> ParseBatchBody(std::string_view content_type, std::string_view body) {
  BatchBody batch;
  if (auto ok = ParseBatchBody(content_type, body, batch); !ok) return tl::unexpected(ok.error());
  return batch;
}

Result<void> ParseBatchBody(std::string_view content_type, std::string_view body,
                            BatchBody& batch) {
  auto boundary = MultipartBoundary(content_type);
  if (!boundary) return tl::unexpected(boundary.error());
  bool extra = false;
  if (auto ok = SplitMultipart(body, *boundary, 1, batch.outer_parts, &extra); !ok) return ok;
  // Azure: spec §7.1 — exactly one changeset (or one lone GET); more are rejected with 400.
  if (batch.outer_parts.empty() || extra) return Malformed("a batch must hold exactly one part");
  const MultipartPart& outer = batch.outer_parts.front();
  auto changeset_boundary = ChangesetBoundaryOrEmpty(outer);
  if (!changeset_boundary) return tl::unexpected(changeset_boundary.error());
  batch.too_many_operations = false;
  if (changeset_boundary->empty()) {
    batch.changeset = false;
    batch.operations.resize(1);
    return ParseOperationPart(outer, batch.operations.front());
  }
  batch.changeset = true;
  std::vector<MultipartPart>& inner = batch.changeset_parts;
  if (auto ok = SplitMultipart(outer.content, *changeset_boundary, kMaxBatchOperations, inner,
                               &batch.too_many_operations);
      !ok) {
    return ok;
  }
  // Existing operations are overwritten in place: their strings keep their capacity.
  batch.operations.resize(inner.size());
  for (std::size_t i = 0; i < inner.size(); ++i) {
    if (auto ok = ParseOperationPart(inner[i], batch.operations[i]); !ok) return ok;
  }
  return {};
}

}  // namespace malachite::server
