#include "server/ops/handler.h"

#include <charconv>
#include <utility>

#include "common/limits.h"

namespace malachite::server {

Outcome ReadOnly(ReadFn read) {
  Outcome outcome;
  outcome.read = std::move(read);
  return outcome;
}

PreferReturn ParsePrefer(const Request& request) {
  const auto prefer = request.Find("Prefer");
  if (!prefer) return PreferReturn::kNone;
  // Azure: spec §4.5 — Prefer may list several preferences separated by ','.
  if (prefer->find("return-no-content") != std::string_view::npos) return PreferReturn::kNoContent;
  if (prefer->find("return-content") != std::string_view::npos) return PreferReturn::kContent;
  return PreferReturn::kNone;
}

std::string_view PreferenceAppliedValue(PreferReturn prefer) {
  switch (prefer) {
    case PreferReturn::kContent:
      return "return-content";
    case PreferReturn::kNoContent:
      return "return-no-content";
    case PreferReturn::kNone:
      break;
  }
  return {};
}

Result<std::size_t> ParseTop(const QueryParams& query) {
  const std::string* text = query.Find("$top");
  if (text == nullptr) return limits::kMaxPageSize;
  long long value = 0;
  const char* end = text->data() + text->size();
  const auto [ptr, ec] = std::from_chars(text->data(), end, value);
  // Azure: spec §6.5 — $top=0 is a valid, empty page; N < 0 or N > 1000, or a non-integer, is
  // InvalidInput.
  if (ec != std::errc() || ptr != end || text->empty() || value < 0 ||
      value > static_cast<long long>(limits::kMaxPageSize)) {
    return Fail(ErrorCode::kInvalidInput);
  }
  return static_cast<std::size_t>(value);
}

}  // namespace malachite::server
