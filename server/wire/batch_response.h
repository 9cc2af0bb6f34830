// The multipart/mixed answer of an entity group transaction (spec §7.3, §7.4): 202 Accepted
// whose body holds one application/http part per operation inside a changesetresponse_ (or, for
// the lone GET, directly inside the batchresponse_), each with its own status line, headers and
// body.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "common/edm.h"
#include "common/error.h"
#include "server/http/message.h"

namespace malachite::server {

class BatchResponseWriter {
 public:
  // `changeset`: the parts answer a changeset (false only for the lone GET of spec §7.1).
  // Boundaries are fresh GUIDs, "batchresponse_<guid>" and "changesetresponse_<guid>" (the JS
  // SDK splits on the literal "--changesetresponse_"). `parts`: how many parts will follow, to
  // size the body once.
  explicit BatchResponseWriter(bool changeset, std::size_t parts = 1);

  // Appends the part answering one operation: "HTTP/1.1 <status> <reason>", Content-ID (when
  // given), X-Content-Type-Options, Cache-Control, the headers of `part` in order,
  // DataServiceVersion `data_service_version` ("3.0;" or "1.0;"), a blank line and the body.
  void AddPart(const Response& part, const std::optional<std::string>& content_id,
               std::string_view data_service_version);

  // The same part written piece by piece, without a Response: OpenPart (status line through
  // Cache-Control), PartHeader per header, ClosePart (DataServiceVersion, blank line, body).
  void OpenPart(int status, const std::optional<std::string>& content_id);
  void PartHeader(std::string_view name, std::string_view value);
  void ClosePart(std::string_view data_service_version, std::string_view body);

  // Appends the part answering a failed operation (spec §7.4): the error's status and
  // odata.error JSON (minimal metadata, compact) whose message is "<index>:" + the user message
  // (no prefix when `index` is nullopt) + "\nRequestId:<id>\nTime:<now>".
  void AddError(const Error& error, std::optional<std::size_t> index,
                const std::optional<std::string>& content_id, std::string_view request_id,
                DateTime now);

  // Closes the body and moves it into `out` with status 202 and the multipart Content-Type.
  void Finish(Response& out);

 private:
  void BeginPart(int status, const std::optional<std::string>& content_id);

  bool changeset_;
  std::string batch_boundary_;
  std::string part_boundary_;  // the changeset's boundary, or the batch's for the lone GET
  std::string body_;
};

// "OK", "Created", "No Content", "Not Found", ... for the status lines of batch parts; "Unknown"
// for a status the service never sends.
std::string_view ReasonPhrase(int status);

}  // namespace malachite::server
