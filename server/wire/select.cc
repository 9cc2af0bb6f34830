// ParseSelect: the $select query option (spec §6.4) into a Selection.
#include "server/wire/select.h"

#include <algorithm>

#include "common/encoding.h"

namespace malachite::server {
namespace {

// Azure: spec §6.4 — at most 255 properties in $select (rec.: more is InvalidInput).
constexpr std::size_t kMaxSelected = 255;

}  // namespace

Result<Selection> ParseSelect(std::string_view text) {
  Selection selection;
  const auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  };
  text = trim(text);
  if (text.empty() || text == "*") return selection;
  selection.all = false;
  while (true) {
    const std::size_t comma = text.find(',');
    const std::string_view name = trim(text.substr(0, comma));
    // Azure: spec §6.4 — unknown names come back as null members, so each name is echoed into
    // the JSON body and must be valid UTF-8.
    if (name.empty() || name == "*" || !IsValidUtf8(name)) return Fail(ErrorCode::kInvalidInput);
    // Repeated names are kept once so the rendered object has no duplicate members.
    if (std::find(selection.names.begin(), selection.names.end(), name) == selection.names.end()) {
      selection.names.emplace_back(name);
      if (selection.names.size() > kMaxSelected) return Fail(ErrorCode::kInvalidInput);
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return selection;
}

}  // namespace malachite::server
