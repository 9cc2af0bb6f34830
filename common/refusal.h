// Why a request was refused, when its ErrorCode alone does not say: OutOfRangeInput answers a
// DateTime before 1601, an Int32 overflow and a forbidden key character alike. The check that
// fails puts RefusalText(rule) at the start of Error::detail (then ": " and the specifics, e.g.
// the property's name), and the design advisor reads the rule back with RefusalOf. Error::detail
// goes to logs only (error_render.cc sends it for authentication failures alone).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace malachite {

enum class Refusal : std::uint8_t {
  kNone,
  kDateTimeRange,    // Azure: spec §9.3 — 1601-01-01 .. 9999-12-31
  kInt32Range,       // spec §9.3
  kInt64Range,       // spec §9.3
  kDoubleRange,      // spec §5.2 — an annotated Double that overflows
  kKeyCharacter,     // spec §9.2 — / \ # ? and control characters
  kBatchOperations,  // spec §7.1 — at most 100 operations in a changeset
  kSasPermission,    // spec §10.7–10.8 — `sp` lacks a letter the operation needs
  kSasResourceType,  // spec §10.7 — `srt` lacks the operation's resource type
  kSasKeyRange,      // spec §10.8 — keys outside spk/srk .. epk/erk
};

inline constexpr std::array<std::string_view, 10> kRefusalTexts = {
    "",
    "DateTime outside 1601-01-01T00:00:00Z .. 9999-12-31T23:59:59.9999999Z",
    "Int32 outside -2147483648 .. 2147483647",
    "Int64 outside -9223372036854775808 .. 9223372036854775807",
    "Double outside the range of a finite double",
    "forbidden character in a key (/ \\ # ? or a control character)",
    "more than 100 operations in one changeset",
    "the SAS lacks a permission",
    "the SAS lacks a resource type",
    "keys outside the SAS key range",
};

// The fixed text of `rule` (empty for kNone). Never fails.
inline std::string_view RefusalText(Refusal rule) {
  return kRefusalTexts[static_cast<std::size_t>(rule)];
}

// "<RefusalText(rule)>: <specifics>", or the text alone when `specifics` is empty.
inline std::string RefusalDetail(Refusal rule, std::string_view specifics = {}) {
  std::string detail(RefusalText(rule));
  if (!specifics.empty()) {
    detail += ": ";
    detail += specifics;
  }
  return detail;
}

// The rule whose text starts `detail`; kNone for any other detail.
inline Refusal RefusalOf(std::string_view detail) {
  for (std::size_t i = 1; i < kRefusalTexts.size(); ++i) {
    if (detail.starts_with(kRefusalTexts[i])) return static_cast<Refusal>(i);
  }
  return Refusal::kNone;
}

// What follows "<text>: " in `detail`; empty when nothing does.
inline std::string_view RefusalSpecifics(std::string_view detail) {
  std::string_view rest = detail.substr(RefusalText(RefusalOf(detail)).size());
  return rest.starts_with(": ") ? rest.substr(2) : std::string_view();
}

}  // namespace malachite
