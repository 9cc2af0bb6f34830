#include "common/datetime.h"

#include <array>
#include <chrono>
#include <cstring>

namespace malachite {
namespace {

constexpr std::int64_t kTicksPerMinute = 60 * kTicksPerSecond;
constexpr std::int64_t kTicksPerDay = 86'400 * kTicksPerSecond;
// Days between 0001-01-01 and 1970-01-01.
constexpr std::int64_t kUnixEpochDays = kUnixEpochTicks / kTicksPerDay;

constexpr std::array<std::string_view, 7> kWeekdays = {"Sun", "Mon", "Tue", "Wed",
                                                       "Thu", "Fri", "Sat"};
constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

// The proleptic Gregorian date of a day counted from 0001-01-01 (the tick epoch).
std::chrono::year_month_day DateOfDay(std::int64_t day) {
  return std::chrono::year_month_day{
      std::chrono::sys_days{std::chrono::days{day - kUnixEpochDays}}};
}

// Reads exactly `n` ASCII digits at `pos`; -1 when any is not a digit.
int ReadDigits(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size()) return -1;
  int v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = s[pos + i];
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

// Ticks of a validated civil date and time of day.
std::optional<std::int64_t> ToTicks(int year, int month, int day, int hour, int minute,
                                    int second) {
  const std::chrono::year_month_day date{std::chrono::year{year},
                                         std::chrono::month{static_cast<unsigned>(month)},
                                         std::chrono::day{static_cast<unsigned>(day)}};
  if (year < 1 || !date.ok() || hour > 23 || minute > 59 || second > 59) return std::nullopt;
  const std::int64_t days = std::chrono::sys_days{date}.time_since_epoch().count() + kUnixEpochDays;
  return days * kTicksPerDay + (hour * 3600LL + minute * 60LL + second) * kTicksPerSecond;
}

void Put2(char* p, int v) {
  p[0] = static_cast<char>('0' + v / 10);
  p[1] = static_cast<char>('0' + v % 10);
}

void Put4(char* p, int v) {
  Put2(p, v / 100);
  Put2(p + 2, v % 100);
}

// Writes "yyyy-MM-ddT" (11 chars): the date of day `days` since 0001-01-01.
void PutIsoDate(char* p, std::int64_t days) {
  const std::chrono::year_month_day date = DateOfDay(days);
  Put4(p, static_cast<int>(date.year()));
  p[4] = '-';
  Put2(p + 5, static_cast<int>(static_cast<unsigned>(date.month())));
  p[7] = '-';
  Put2(p + 8, static_cast<int>(static_cast<unsigned>(date.day())));
  p[10] = 'T';
}

// Writes "HH:mm:ss" (8 chars) of `rest` ticks into a day and returns the 7-digit fraction.
int PutIsoTime(char* p, std::int64_t rest) {
  const int secs = static_cast<int>(rest / kTicksPerSecond);
  Put2(p, secs / 3600);
  p[2] = ':';
  Put2(p + 3, secs / 60 % 60);
  p[5] = ':';
  Put2(p + 6, secs % 60);
  return static_cast<int>(rest % kTicksPerSecond);
}

// Writes "yyyy-MM-ddTHH:mm:ss" (19 chars) and returns the 7-digit fraction.
int PutIsoSeconds(char* p, DateTime t) {
  const std::int64_t ticks = t.ticks < 0 ? 0 : t.ticks;
  PutIsoDate(p, ticks / kTicksPerDay);
  return PutIsoTime(p + 11, ticks % kTicksPerDay);
}

// Writes the 7 fraction digits of `fraction` at p.
void PutFraction7(char* p, int fraction) {
  for (int i = 6; i >= 0; --i) {
    p[i] = static_cast<char>('0' + fraction % 10);
    fraction /= 10;
  }
}

// Parses "+hh:mm" / "-hh:mm" into signed minutes east of UTC.
std::optional<int> ParseOffset(std::string_view s) {
  if (s.size() != 6 || (s[0] != '+' && s[0] != '-') || s[3] != ':') return std::nullopt;
  const int hh = ReadDigits(s, 1, 2);
  const int mm = ReadDigits(s, 4, 2);
  if (hh < 0 || mm < 0 || hh > 23 || mm > 59) return std::nullopt;
  const int minutes = hh * 60 + mm;
  return s[0] == '-' ? -minutes : minutes;
}

}  // namespace

std::optional<DateTime> ParseIso8601(std::string_view s) {
  if (s.size() < 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':') {
    return std::nullopt;
  }
  const int year = ReadDigits(s, 0, 4), month = ReadDigits(s, 5, 2), day = ReadDigits(s, 8, 2);
  const int hour = ReadDigits(s, 11, 2), minute = ReadDigits(s, 14, 2);
  const int second = ReadDigits(s, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) {
    return std::nullopt;
  }
  std::optional<std::int64_t> ticks = ToTicks(year, month, day, hour, minute, second);
  if (!ticks) return std::nullopt;
  std::size_t pos = 19;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    std::int64_t fraction = 0;
    std::size_t digits = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (++digits > 7) return std::nullopt;
      fraction = fraction * 10 + (s[pos] - '0');
      ++pos;
    }
    if (digits == 0) return std::nullopt;
    for (std::size_t i = digits; i < 7; ++i) fraction *= 10;
    *ticks += fraction;
  }
  const std::string_view zone = s.substr(pos);
  if (zone.empty() || zone == "Z") return DateTime{*ticks};
  std::optional<int> offset = ParseOffset(zone);
  if (!offset) return std::nullopt;
  // Local time minus its offset east of UTC is UTC.
  return DateTime{*ticks - *offset * kTicksPerMinute};
}

std::string FormatIso8601(DateTime t) {
  std::string out;
  AppendIso8601(out, t);
  return out;
}

// Completes PutIso8601's text after the seconds at buf[19]; returns the whole length.
std::size_t PutIsoFraction(char* buf, int fraction) {
  if (fraction == 0) {
    buf[19] = 'Z';
    return 20;
  }
  // The seven digits in pairs, then the trailing zeros dropped from the text (Azure: spec §3);
  // the fraction is not zero, so a digit stays.
  buf[19] = '.';
  Put2(buf + 20, fraction / 100000);
  Put2(buf + 22, fraction / 1000 % 100);
  Put2(buf + 24, fraction / 10 % 100);
  buf[26] = static_cast<char>('0' + fraction % 10);
  std::size_t end = 27;
  while (buf[end - 1] == '0') --end;
  buf[end] = 'Z';
  return end + 1;
}

std::size_t PutIso8601(char* buf, DateTime t) { return PutIsoFraction(buf, PutIsoSeconds(buf, t)); }

std::size_t Iso8601Writer::Put(char* buf, DateTime t) {
  // Entities of one page were often written in the same second (by a batch, or a loop): the
  // text up to the seconds is kept from the last call.
  const std::int64_t ticks = t.ticks < 0 ? 0 : t.ticks;
  const std::int64_t second = ticks / kTicksPerSecond;
  if (second != second_) {
    PutIsoSeconds(seconds_, DateTime{ticks});
    second_ = second;
  }
  std::memcpy(buf, seconds_, sizeof seconds_);
  return PutIsoFraction(buf, static_cast<int>(ticks % kTicksPerSecond));
}

void AppendIso8601(std::string& out, DateTime t) {
  char buf[kIso8601MaxChars];
  out.append(buf, PutIso8601(buf, t));
}

std::string FormatIso8601Fixed7(DateTime t) {
  char buf[28];
  const int fraction = PutIsoSeconds(buf, t);
  buf[19] = '.';
  PutFraction7(buf + 20, fraction);
  buf[27] = 'Z';
  return std::string(buf, 28);
}

std::string FormatRfc1123(DateTime t) {
  // "Sat, 21 Nov 2026 05:21:46 GMT" is 29 chars.
  char iso[28];
  PutIsoSeconds(iso, t);
  const std::int64_t days = (t.ticks < 0 ? 0 : t.ticks) / kTicksPerDay;
  const std::chrono::weekday day_of_week{
      std::chrono::sys_days{std::chrono::days{days - kUnixEpochDays}}};
  const std::string_view weekday = kWeekdays[day_of_week.c_encoding()];
  const int month = (iso[5] - '0') * 10 + (iso[6] - '0');
  char buf[29];
  std::memcpy(buf, weekday.data(), 3);
  buf[3] = ',';
  buf[4] = ' ';
  std::memcpy(buf + 5, iso + 8, 2);  // day
  buf[7] = ' ';
  std::memcpy(buf + 8, kMonths[month - 1].data(), 3);
  buf[11] = ' ';
  std::memcpy(buf + 12, iso, 4);  // year
  buf[16] = ' ';
  std::memcpy(buf + 17, iso + 11, 8);  // HH:mm:ss
  std::memcpy(buf + 25, " GMT", 4);
  return std::string(buf, 29);
}

std::optional<DateTime> ParseRfc1123(std::string_view s) {
  // "Ddd, D[D] Mon YYYY HH:MM:SS GMT"; the weekday must be a valid name (not cross-checked).
  if (s.size() < 5 || s[3] != ',' || s[4] != ' ') return std::nullopt;
  bool weekday_ok = false;
  for (std::string_view w : kWeekdays) weekday_ok |= s.substr(0, 3) == w;
  if (!weekday_ok) return std::nullopt;
  s.remove_prefix(5);
  const std::size_t day_len = s.size() > 1 && s[1] == ' ' ? 1 : 2;
  const int day = ReadDigits(s, 0, day_len);
  if (day < 0) return std::nullopt;
  s.remove_prefix(day_len);
  if (s.size() != 22 || s[0] != ' ' || s[4] != ' ' || s[9] != ' ' || s[12] != ':' || s[15] != ':' ||
      s.substr(18) != " GMT") {
    return std::nullopt;
  }
  int month = 0;
  for (int i = 0; i < 12; ++i) {
    if (s.substr(1, 3) == kMonths[i]) month = i + 1;
  }
  const int year = ReadDigits(s, 5, 4), hour = ReadDigits(s, 10, 2);
  const int minute = ReadDigits(s, 13, 2), second = ReadDigits(s, 16, 2);
  if (month == 0 || year < 0 || hour < 0 || minute < 0 || second < 0) return std::nullopt;
  std::optional<std::int64_t> ticks = ToTicks(year, month, day, hour, minute, second);
  if (!ticks) return std::nullopt;
  return DateTime{*ticks};
}

DateTime FromUnixMicros(std::int64_t micros) { return DateTime{kUnixEpochTicks + micros * 10}; }

std::int64_t ToUnixMicros(DateTime t) {
  const std::int64_t ticks = t.ticks - kUnixEpochTicks;
  // Floor division so times before 1970 round toward the past.
  return ticks >= 0 ? ticks / 10 : -((-ticks + 9) / 10);
}

}  // namespace malachite
