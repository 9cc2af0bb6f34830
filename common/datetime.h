// Parsing and formatting of the time forms the Table service uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/edm.h"

namespace malachite {

// Azure: spec §9.3 — DateTime range 1601-01-01T00:00:00Z .. 9999-12-31T23:59:59.9999999Z.
inline constexpr std::int64_t kMinDateTimeTicks = 504911232000000000;  // 1601-01-01
// 9999-12-31T23:59:59.9999999
inline constexpr std::int64_t kMaxDateTimeTicks = 3155378975999999999;
inline constexpr std::int64_t kTicksPerSecond = 10'000'000;
// Ticks between 0001-01-01 and the Unix epoch.
inline constexpr std::int64_t kUnixEpochTicks = 621355968000000000;

// Parses ISO-8601 `yyyy-MM-ddTHH:mm:ss[.f{1,7}][Z]` (no offset means UTC; also accepts a numeric
// offset `+hh:mm`/`-hh:mm`, converted to UTC). Returns nullopt when malformed. Does NOT check the
// 1601..9999 service range: callers do (it needs OutOfRangeInput, not InvalidInput).
std::optional<DateTime> ParseIso8601(std::string_view text);

// `yyyy-MM-ddTHH:mm:ss[.F]Z` with the fraction trimmed of trailing zeros (no fraction for whole
// seconds), as the service emits Timestamp and DateTime properties.
std::string FormatIso8601(DateTime t);
// Appends FormatIso8601(t) to `out` without a temporary string (rendering hot path).
void AppendIso8601(std::string& out, DateTime t);
// Writes FormatIso8601(t) at `buf` and returns its length (at most kIso8601MaxChars).
inline constexpr std::size_t kIso8601MaxChars = 28;
std::size_t PutIso8601(char* buf, DateTime t);
// PutIso8601 for many timestamps in a row: reuses the text up to the seconds of the previous one
// when the second is the same. One per thread (it keeps that text).
class Iso8601Writer {
 public:
  std::size_t Put(char* buf, DateTime t);

 private:
  std::int64_t second_ = -1;
  char seconds_[19] = {};  // "yyyy-MM-ddTHH:mm:ss" of second_
};
// `yyyy-MM-ddTHH:mm:ss.fffffffZ` with all 7 digits, as in error messages' "Time:" line.
std::string FormatIso8601Fixed7(DateTime t);

// RFC 1123 `Sat, 21 Nov 2026 05:21:46 GMT` (HTTP Date header).
std::string FormatRfc1123(DateTime t);
// Parses RFC 1123 dates as sent in `Date`/`x-ms-date`; nullopt when malformed.
std::optional<DateTime> ParseRfc1123(std::string_view text);

// Unix time conversions.
DateTime FromUnixMicros(std::int64_t micros);
std::int64_t ToUnixMicros(DateTime t);

}  // namespace malachite
