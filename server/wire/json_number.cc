// The JSON text of numbers (json_number.h).
#include "server/wire/json_number.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>

namespace malachite::server {
namespace {

// AppendJsonDouble's text (std::to_chars(value), with ".0" when integral) for the common doubles
// that are short decimals, without to_chars' general algorithm: writes it at `buf` (room for 32)
// and returns its length, or 0 when `value` is not one of them. Why the output is the same: for
// 1e-3 <= |value| < 1e5 to_chars picks fixed notation (never longer than the exponent form there)
// with the fewest digits that parse back to `value`. With k <= 9 fraction digits, m = round(|value|
// * 10^k) < 2^53 is exact, and m / 10^k (a correctly rounded division of exact operands) equals
// |value| exactly when the k-digit decimal parses back to it; no other k-digit decimal does, since
// |value|'s ulp (<= 2^-36) is below 10^-k. So the smallest such k gives to_chars' digits.
std::size_t PutShortDecimal(double value, char* buf) {
  static constexpr double kPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
  static constexpr std::uint64_t kIntPow10[] = {1,      10,      100,      1000,      10000,
                                                100000, 1000000, 10000000, 100000000, 1000000000};
  const double magnitude = std::fabs(value);
  if (!(magnitude >= 1e-3 && magnitude < 1e5)) return 0;
  for (int k = 0; k <= 9; ++k) {
    // Rounds half up without libm: scaled < 1e14 fits an integer, and scaled - whole is exact.
    const double scaled = magnitude * kPow10[k];
    const auto whole = static_cast<std::uint64_t>(scaled);
    const std::uint64_t digits = whole + (scaled - static_cast<double>(whole) >= 0.5 ? 1 : 0);
    if (static_cast<double>(digits) / kPow10[k] != magnitude) continue;
    char* p = buf;
    if (value < 0) *p++ = '-';
    p = std::to_chars(p, p + 8, digits / kIntPow10[k]).ptr;
    *p++ = '.';
    if (k == 0) {
      *p++ = '0';  // Azure: spec §5.2 — as AppendJsonDouble's ".0" for integral values
    } else {
      std::uint64_t fraction = digits % kIntPow10[k];
      for (int i = k - 1; i >= 0; --i, fraction /= 10)
        p[i] = static_cast<char>('0' + fraction % 10);
      p += k;
    }
    return static_cast<std::size_t>(p - buf);
  }
  return 0;
}

}  // namespace

std::size_t FormatJsonDouble(double value, char (&buf)[kJsonNumberMaxChars]) {
  if (const std::size_t len = PutShortDecimal(value, buf); len != 0) return len;
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf - 2, value);
  std::size_t len = ec == std::errc() ? static_cast<std::size_t>(end - buf) : 0;
  // Azure: spec §5.2 — integral doubles keep a ".0" so Python/.NET read them back as Double.
  if (std::string_view(buf, len).find_first_of(".en") == std::string_view::npos) {
    buf[len++] = '.';
    buf[len++] = '0';
  }
  return len;
}

std::size_t FormatJsonInt(std::int64_t value, char (&buf)[kJsonNumberMaxChars]) {
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  return ec == std::errc() ? static_cast<std::size_t>(end - buf) : 0;
}

}  // namespace malachite::server
