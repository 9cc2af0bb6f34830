#include "common/datetime.h"

#include <catch2/catch.hpp>

namespace malachite {
namespace {

// Parses `text` and formats it back with FormatIso8601; "<nullopt>" when parsing fails.
std::string Reformat(std::string_view text) {
  std::optional<DateTime> t = ParseIso8601(text);
  return t ? FormatIso8601(*t) : "<nullopt>";
}

TEST_CASE("datetime: ISO-8601 round trips keep all 7 fraction digits", "[common]") {
  CHECK(Reformat("2024-03-01T10:00:00.1234567Z") == "2024-03-01T10:00:00.1234567Z");
  CHECK(Reformat("2021-02-05T17:15:16.7935715Z") == "2021-02-05T17:15:16.7935715Z");
  CHECK(Reformat("2000-02-29T23:59:59.0000001Z") == "2000-02-29T23:59:59.0000001Z");
}

TEST_CASE("datetime: FormatIso8601 trims trailing fraction zeros and drops whole seconds",
          "[common]") {
  CHECK(Reformat("2024-03-01T10:00:00.5Z") == "2024-03-01T10:00:00.5Z");
  CHECK(Reformat("2024-03-01T10:00:00.5000000Z") == "2024-03-01T10:00:00.5Z");
  CHECK(Reformat("1973-10-04T00:00:00.000000Z") == "1973-10-04T00:00:00Z");
  CHECK(Reformat("2024-01-02T03:04:05.678Z") == "2024-01-02T03:04:05.678Z");
  CHECK(Reformat("2024-01-02T03:04:05.151805Z") == "2024-01-02T03:04:05.151805Z");
  // Every count of trailing zeros, with zeros inside the digits too.
  CHECK(Reformat("2024-01-02T03:04:05.0000001Z") == "2024-01-02T03:04:05.0000001Z");
  CHECK(Reformat("2024-01-02T03:04:05.0000010Z") == "2024-01-02T03:04:05.000001Z");
  CHECK(Reformat("2024-01-02T03:04:05.0000100Z") == "2024-01-02T03:04:05.00001Z");
  CHECK(Reformat("2024-01-02T03:04:05.0001000Z") == "2024-01-02T03:04:05.0001Z");
  CHECK(Reformat("2024-01-02T03:04:05.0010000Z") == "2024-01-02T03:04:05.001Z");
  CHECK(Reformat("2024-01-02T03:04:05.0100000Z") == "2024-01-02T03:04:05.01Z");
  CHECK(Reformat("2024-01-02T03:04:05.1000000Z") == "2024-01-02T03:04:05.1Z");
  CHECK(Reformat("2024-01-02T03:04:05.9090909Z") == "2024-01-02T03:04:05.9090909Z");
  CHECK(Reformat("2024-01-02T03:04:05.9999999Z") == "2024-01-02T03:04:05.9999999Z");
}

TEST_CASE("datetime: Iso8601Writer writes what PutIso8601 writes, across second and day changes",
          "[common]") {
  Iso8601Writer writer;
  constexpr std::int64_t kDay = 864000000000;
  const std::int64_t base = ParseIso8601("2024-02-28T23:59:59.9999999Z")->ticks;
  for (std::int64_t ticks : {base, base + 1, base + 2, base + kDay, base + kDay + 1, base,
                             std::int64_t{0}, std::int64_t{-5}, base + 5000000, base + 10,
                             base + 10000000, base + 19999999, base + 20000000, base + 3}) {
    char a[kIso8601MaxChars];
    char b[kIso8601MaxChars];
    const std::size_t n = writer.Put(a, DateTime{ticks});
    INFO(ticks);
    CHECK(std::string_view(a, n) == std::string_view(b, PutIso8601(b, DateTime{ticks})));
    CHECK(std::string_view(a, n) == FormatIso8601(DateTime{ticks}));
  }
}

TEST_CASE("datetime: no zone means UTC and numeric offsets convert to UTC", "[common]") {
  CHECK(Reformat("2024-03-01T10:00:00") == "2024-03-01T10:00:00Z");
  CHECK(Reformat("2024-03-01T10:00:00.25") == "2024-03-01T10:00:00.25Z");
  CHECK(Reformat("2024-03-01T10:00:00+02:00") == "2024-03-01T08:00:00Z");
  CHECK(Reformat("2024-03-01T01:30:00.1-05:30") == "2024-03-01T07:00:00.1Z");
  CHECK(Reformat("2024-03-01T00:30:00+01:00") == "2024-02-29T23:30:00Z");
}

TEST_CASE("datetime: ParseIso8601 rejects malformed text", "[common]") {
  for (std::string_view bad : {"",
                               "2024-03-01",
                               "2024-03-01 10:00:00Z",
                               "2024-3-01T10:00:00Z",
                               "2024-03-01T10:00Z",
                               "2024-03-01T10:00:00.Z",
                               "2024-03-01T10:00:00.12345678Z",
                               "2024-03-01T10:00:00ZZ",
                               "2024-03-01T10:00:00+0200",
                               "2024-03-01T10:00:00+24:00",
                               "2024-13-01T10:00:00Z",
                               "2024-00-01T10:00:00Z",
                               "2023-02-29T10:00:00Z",
                               "1900-02-29T00:00:00Z",
                               "2024-04-31T00:00:00Z",
                               "2024-03-01T24:00:00Z",
                               "2024-03-01T10:60:00Z",
                               "2024-03-01T10:00:60Z",
                               "0000-01-01T00:00:00Z",
                               "2024-03-01T1a:00:00Z",
                               "+024-03-01T10:00:00Z",
                               "2024-03-01T10:00:00 "}) {
    INFO(bad);
    CHECK_FALSE(ParseIso8601(bad).has_value());
  }
  CHECK(ParseIso8601("2000-02-29T00:00:00Z").has_value());
  CHECK(ParseIso8601("2024-02-29T00:00:00Z").has_value());
}

TEST_CASE("datetime: the service range ends parse to the range constants", "[common]") {
  CHECK(ParseIso8601("1601-01-01T00:00:00Z")->ticks == kMinDateTimeTicks);
  CHECK(ParseIso8601("9999-12-31T23:59:59.9999999Z")->ticks == kMaxDateTimeTicks);
  CHECK(ParseIso8601("0001-01-01T00:00:00Z")->ticks == 0);
  CHECK(ParseIso8601("1970-01-01T00:00:00Z")->ticks == kUnixEpochTicks);
  CHECK(FormatIso8601(DateTime{kMaxDateTimeTicks}) == "9999-12-31T23:59:59.9999999Z");
  CHECK(FormatIso8601(DateTime{kMinDateTimeTicks}) == "1601-01-01T00:00:00Z");
}

TEST_CASE("datetime: FormatIso8601Fixed7 always writes 7 digits", "[common]") {
  CHECK(FormatIso8601Fixed7(*ParseIso8601("2024-05-06T07:08:09Z")) ==
        "2024-05-06T07:08:09.0000000Z");
  CHECK(FormatIso8601Fixed7(*ParseIso8601("2021-09-21T00:50:22.418069Z")) ==
        "2021-09-21T00:50:22.4180690Z");
}

TEST_CASE("datetime: RFC 1123 format and parse agree", "[common]") {
  const DateTime t = *ParseIso8601("2026-11-21T05:21:46.75Z");
  CHECK(FormatRfc1123(t) == "Sat, 21 Nov 2026 05:21:46 GMT");
  CHECK(FormatRfc1123(DateTime{kUnixEpochTicks}) == "Thu, 01 Jan 1970 00:00:00 GMT");
  CHECK(FormatRfc1123(*ParseIso8601("2024-02-29T23:59:59Z")) == "Thu, 29 Feb 2024 23:59:59 GMT");
  CHECK(FormatIso8601(*ParseRfc1123("Sat, 21 Nov 2026 05:21:46 GMT")) == "2026-11-21T05:21:46Z");
  CHECK(FormatIso8601(*ParseRfc1123("Mon, 1 Jan 2024 00:00:01 GMT")) == "2024-01-01T00:00:01Z");
}

TEST_CASE("datetime: calendar edges (year 1, Gregorian leap rules, year 9999) format and parse",
          "[common]") {
  CHECK(FormatRfc1123(DateTime{0}) == "Mon, 01 Jan 0001 00:00:00 GMT");
  CHECK(FormatRfc1123(*ParseIso8601("1600-02-29T00:00:00Z")) == "Tue, 29 Feb 1600 00:00:00 GMT");
  CHECK(FormatRfc1123(*ParseIso8601("2000-02-29T12:00:00Z")) == "Tue, 29 Feb 2000 12:00:00 GMT");
  CHECK(FormatRfc1123(*ParseIso8601("9999-12-31T23:59:59Z")) == "Fri, 31 Dec 9999 23:59:59 GMT");
  CHECK_FALSE(ParseIso8601("1900-02-29T00:00:00Z"));  // 1900 is not a leap year
  CHECK_FALSE(ParseIso8601("2023-04-31T00:00:00Z"));
  CHECK_FALSE(ParseIso8601("0000-01-01T00:00:00Z"));
  CHECK(FormatIso8601(*ParseIso8601("1900-03-01T00:00:00Z")) == "1900-03-01T00:00:00Z");
}

TEST_CASE("datetime: ParseRfc1123 rejects malformed dates", "[common]") {
  for (std::string_view bad : {"", "Sat", "Sat, 21 Nov 2026 05:21:46",
                               "Sat, 21 Nov 2026 05:21:46 UTC", "Sat 21 Nov 2026 05:21:46 GMT",
                               "Xyz, 21 Nov 2026 05:21:46 GMT", "Sat, 21 Foo 2026 05:21:46 GMT",
                               "Sat, 31 Nov 2026 05:21:46 GMT", "Sat, 21 Nov 2026 25:21:46 GMT",
                               "2026-11-21T05:21:46Z", "Saturday, 21-Nov-26 05:21:46 GMT"}) {
    INFO(bad);
    CHECK_FALSE(ParseRfc1123(bad).has_value());
  }
}

TEST_CASE("datetime: Unix microsecond conversions invert each other", "[common]") {
  CHECK(FromUnixMicros(0).ticks == kUnixEpochTicks);
  CHECK(FormatIso8601(FromUnixMicros(1'700'000'000'123'456)) == "2023-11-14T22:13:20.123456Z");
  CHECK(ToUnixMicros(FromUnixMicros(1'700'000'000'123'456)) == 1'700'000'000'123'456);
  CHECK(ToUnixMicros(DateTime{kUnixEpochTicks - 1}) == -1);
  CHECK(ToUnixMicros(DateTime{kUnixEpochTicks + 19}) == 1);
}

}  // namespace
}  // namespace malachite
