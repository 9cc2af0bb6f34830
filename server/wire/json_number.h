// The JSON text of numbers, written into a caller's buffer: what AppendJsonDouble and
// AppendJsonInt (json_writer.h) append, for writers that place it themselves.
#pragma once

#include <cstddef>
#include <cstdint>

namespace malachite::server {

// Room for any text FormatJsonDouble or FormatJsonInt writes.
inline constexpr std::size_t kJsonNumberMaxChars = 32;

// A finite double in shortest round-trip form (std::to_chars), with ".0" when that form has no
// '.', exponent or 'n' (5 -> "5.0", 1e+20 stays "1e+20") so clients read a float, not an
// integer; written at `buf`, its length returned. REQUIRES: std::isfinite(value).
std::size_t FormatJsonDouble(double value, char (&buf)[kJsonNumberMaxChars]);

// A decimal integer written at `buf`; its length returned.
std::size_t FormatJsonInt(std::int64_t value, char (&buf)[kJsonNumberMaxChars]);

}  // namespace malachite::server
