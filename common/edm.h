// EDM values: the typed property values of the Table service (spec §5.2).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace malachite {

// Azure: spec §5.2. The numeric values are part of the on-disk format (storage/FORMAT.md):
// never renumber.
enum class EdmType : std::uint8_t {
  kString = 0,
  kInt32 = 1,
  kInt64 = 2,
  kDouble = 3,
  kBoolean = 4,
  kDateTime = 5,
  kGuid = 6,
  kBinary = 7,
};

// "Edm.String", "Edm.Int32", ... Never fails.
std::string_view EdmTypeName(EdmType type);
// Inverse of EdmTypeName (exact, case-sensitive match); nullopt for anything else.
std::optional<EdmType> ParseEdmTypeName(std::string_view name);

// A point in time as the service keeps it: 100 ns ticks since 0001-01-01T00:00:00Z (the .NET
// epoch), always UTC. Comparisons are at full tick precision.
struct DateTime {
  std::int64_t ticks = 0;
  auto operator<=>(const DateTime&) const = default;
};

// One typed value. Which member holds the value depends on `type`:
//   kString  -> bytes (UTF-8)          kInt32, kInt64 -> integer
//   kDouble  -> number                 kBoolean       -> integer (0 or 1)
//   kDateTime-> integer (ticks)        kGuid          -> bytes (16 raw bytes, textual order)
//   kBinary  -> bytes (raw)
// A plain struct rather than a std::variant: cheap to move, trivially inspectable in tests.
struct EdmValue {
  EdmType type = EdmType::kString;
  std::int64_t integer = 0;
  double number = 0;
  std::string bytes;

  static EdmValue String(std::string s) { return {EdmType::kString, 0, 0, std::move(s)}; }
  static EdmValue Int32(std::int32_t v) { return {EdmType::kInt32, v, 0, {}}; }
  static EdmValue Int64(std::int64_t v) { return {EdmType::kInt64, v, 0, {}}; }
  static EdmValue Double(double v) { return {EdmType::kDouble, 0, v, {}}; }
  static EdmValue Boolean(bool v) { return {EdmType::kBoolean, v ? 1 : 0, 0, {}}; }
  static EdmValue Time(DateTime v) { return {EdmType::kDateTime, v.ticks, 0, {}}; }
  static EdmValue Guid(const std::array<std::uint8_t, 16>& raw) {
    return {EdmType::kGuid, 0, 0, std::string(raw.begin(), raw.end())};
  }
  static EdmValue Binary(std::string raw) { return {EdmType::kBinary, 0, 0, std::move(raw)}; }

  DateTime AsDateTime() const { return DateTime{integer}; }

  // Same type and same value (Doubles compared bitwise-equal except NaN == NaN); for tests.
  bool operator==(const EdmValue& other) const;
};

}  // namespace malachite
