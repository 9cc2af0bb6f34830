#include "common/validation.h"

#include <algorithm>
#include <array>
#include <string>

#include "common/encoding.h"
#include "common/limits.h"
#include "common/refusal.h"

namespace malachite {
namespace {

bool IsAsciiLetter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

// Decodes the code point at `pos` and advances it. REQUIRES: IsValidUtf8(text).
std::uint32_t NextCodePoint(std::string_view text, std::size_t& pos) {
  const auto c = static_cast<unsigned char>(text[pos]);
  std::size_t len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
  std::uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
  for (std::size_t i = 1; i < len; ++i) {
    cp = (cp << 6) | (static_cast<unsigned char>(text[pos + i]) & 0x3f);
  }
  pos += len;
  return cp;
}

// How a non-ASCII code point may appear in a property name.
enum class NameChar { kLetter, kPartOnly, kInvalid };

// Emulator: an approximation of the C# identifier classes of spec §9.3 without Unicode tables.
// Exact for Latin-1; known punctuation, whitespace, symbol and private-use blocks are invalid;
// combining marks and format characters may continue a name but not start it; every other
// code point counts as a letter.
NameChar ClassifyNonAscii(std::uint32_t cp) {
  if (cp < 0xa0) return NameChar::kInvalid;  // C1 controls
  if (cp < 0x100) {
    if (cp == 0xaa || cp == 0xb5 || cp == 0xba) return NameChar::kLetter;
    if (cp == 0xad) return NameChar::kPartOnly;  // soft hyphen (Cf)
    if (cp < 0xc0 || cp == 0xd7 || cp == 0xf7) return NameChar::kInvalid;
    return NameChar::kLetter;
  }
  if (cp >= 0x300 && cp <= 0x36f) return NameChar::kPartOnly;  // combining diacritics (Mn)
  if (cp == 0x1680) return NameChar::kInvalid;                 // ogham space
  if (cp >= 0x2000 && cp <= 0x206f) {                          // general punctuation
    const bool format = (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
                        (cp >= 0x2060 && cp <= 0x2064) || cp >= 0x2066;
    const bool connector = cp == 0x203f || cp == 0x2040 || cp == 0x2054;
    return format || connector ? NameChar::kPartOnly : NameChar::kInvalid;
  }
  if (cp >= 0x2070 && cp <= 0x2bff) return NameChar::kInvalid;  // super/subscripts, symbols
  if (cp >= 0x3000 && cp <= 0x303f) {                           // CJK symbols and punctuation
    const bool letter = (cp >= 0x3005 && cp <= 0x3007) || (cp >= 0x3021 && cp <= 0x3029) ||
                        (cp >= 0x3031 && cp <= 0x3035) || (cp >= 0x3038 && cp <= 0x303c);
    if (cp >= 0x302a && cp <= 0x302f) return NameChar::kPartOnly;
    return letter ? NameChar::kLetter : NameChar::kInvalid;
  }
  if (cp >= 0xe000 && cp <= 0xf8ff) return NameChar::kInvalid;   // private use
  if (cp >= 0xfe00 && cp <= 0xfe0f) return NameChar::kPartOnly;  // variation selectors (Mn)
  if (cp == 0xfeff) return NameChar::kPartOnly;                  // BOM / ZWNBSP (Cf)
  if (cp >= 0xfff0) return NameChar::kInvalid;                   // specials, noncharacters
  return NameChar::kLetter;
}

// The bytes an ASCII identifier continues with: letters, digits and `_`. One lookup a byte,
// for the names of every property of every write.
constexpr std::array<bool, 256> kIdentifierBytes = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 256; ++c) {
    table[c] =
        (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  }
  return table;
}();

// An ASCII C# identifier: `_` or a letter, then letters, digits and `_` (spec §9.3).
bool IsAsciiIdentifier(std::string_view name) {
  if (!IsAsciiLetter(name.front()) && name.front() != '_') return false;
  for (char c : name) {
    if (!kIdentifierBytes[static_cast<unsigned char>(c)]) return false;
  }
  return true;
}

constexpr bool IsForbiddenKeyByte(unsigned char b) {
  // Azure: spec §9.2 — / \ # ? and U+0000-U+001F, U+007F.
  return b == '/' || b == '\\' || b == '#' || b == '?' || b < 0x20 || b == 0x7f;
}

// Azure: spec §9.3 — bytes a value contributes to the entity size. Fixed sizes: Int32 4,
// Int64/Double/DateTime 8, Boolean 1, Guid 16; strings as UTF-16 bytes, binary as raw bytes.
std::size_t ValueBytes(const EdmValue& value) {
  switch (value.type) {
    case EdmType::kString:
      return 2 * Utf16Length(value.bytes);
    case EdmType::kBinary:
      return value.bytes.size();
    case EdmType::kInt32:
      return 4;
    case EdmType::kBoolean:
      return 1;
    case EdmType::kGuid:
      return 16;
    case EdmType::kInt64:
    case EdmType::kDouble:
    case EdmType::kDateTime:
      return 8;
  }
  return 8;
}

// The bytes of a property whose name has `name_units` UTF-16 units.
std::size_t PropertyBytes(std::size_t name_units, std::size_t value_bytes) {
  return 4 + 2 * name_units + value_bytes;
}

// The UTF-16 lengths of the system property names.
constexpr std::size_t kPartitionKeyUnits = std::string_view("PartitionKey").size();
constexpr std::size_t kRowKeyUnits = std::string_view("RowKey").size();
constexpr std::size_t kTimestampUnits = std::string_view("Timestamp").size();

// Azure: spec §9.3 — strings valid UTF-8 up to 64 KiB as UTF-16, binary up to 64 KiB. Returns
// the value's size (ValueBytes), a string's UTF-16 length taken from the same pass.
Result<std::size_t> CheckValue(const EdmValue& value) {
  if (value.type == EdmType::kString) {
    const std::optional<std::size_t> units = ValidUtf16Length(value.bytes);
    if (!units) return Fail(ErrorCode::kInvalidInput);
    if (2 * *units > limits::kPropertyValueMaxBytes) return Fail(ErrorCode::kPropertyValueTooLarge);
    return 2 * *units;
  }
  if (value.type == EdmType::kBinary && value.bytes.size() > limits::kPropertyValueMaxBytes) {
    return Fail(ErrorCode::kPropertyValueTooLarge);
  }
  return ValueBytes(value);
}

// The bytes that send a key to the full checks: the forbidden ones (IsForbiddenKeyByte) and
// every non-ASCII byte.
constexpr std::array<bool, 256> kKeyCheckedBytes = [] {
  std::array<bool, 256> table{};
  for (int b = 0; b < 256; ++b) table[b] = b >= 0x80 || IsForbiddenKeyByte(b);
  return table;
}();

// ValidateKey's checks; the key's UTF-16 length when they pass.
Result<std::size_t> CheckKey(std::string_view which, std::string_view value) {
  // The common key is short ASCII without a forbidden byte: valid UTF-8, one unit a byte, and
  // passing every check, which one lookup a byte tells.
  if (value.size() <= limits::kKeyMaxUtf16 && std::none_of(value.begin(), value.end(), [](char c) {
        return kKeyCheckedBytes[static_cast<unsigned char>(c)];
      })) {
    return value.size();
  }
  const std::optional<std::size_t> units = ValidUtf16Length(value);
  if (!units) return Fail(ErrorCode::kInvalidInput);
  if (*units > limits::kKeyMaxUtf16) {
    std::string message = "The '";
    message += which;
    message +=
        "' property exceeds the maximum allowed key size (2KB). It is a UTF-16 encoded string "
        "and the maximum number of characters should be 1K or less.";
    return Fail(ErrorCode::kKeyValueTooLarge, std::move(message));
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    const auto b = static_cast<unsigned char>(value[i]);
    // U+0080-U+009F are encoded C2 80..C2 9F.
    const bool c1_control =
        b == 0xc2 && i + 1 < value.size() && static_cast<unsigned char>(value[i + 1]) <= 0x9f;
    // Emulator: the service raises ArgumentOutOfRange for these (spec §9.2, rec.).
    if (IsForbiddenKeyByte(b) || c1_control) {
      return Fail(ErrorCode::kOutOfRangeInput, {}, RefusalDetail(Refusal::kKeyCharacter, which));
    }
  }
  return *units;
}

// ValidatePropertyName's checks; the name's UTF-16 length when they pass.
Result<std::size_t> CheckPropertyName(std::string_view name) {
  // The common name is ASCII: valid UTF-8, one UTF-16 unit a byte, checked in one pass.
  if (!name.empty() && name.size() <= limits::kPropertyNameMax && IsAsciiIdentifier(name)) {
    return name.size();
  }
  const std::optional<std::size_t> units = ValidUtf16Length(name);
  if (!units) return Fail(ErrorCode::kPropertyNameInvalid);
  if (*units > limits::kPropertyNameMax) return Fail(ErrorCode::kPropertyNameTooLong);
  if (name.empty()) return Fail(ErrorCode::kPropertyNameInvalid);
  // Azure: spec §9.3 — a C# identifier: first `_` or a letter, then letters, digits, marks, `_`.
  std::size_t pos = 0;
  bool first = true;
  while (pos < name.size()) {
    const char c = name[pos];
    bool ok;
    if (static_cast<unsigned char>(c) < 0x80) {
      ok = IsAsciiLetter(c) || c == '_' || (!first && IsAsciiDigit(c));
      ++pos;
    } else {
      const NameChar kind = ClassifyNonAscii(NextCodePoint(name, pos));
      ok = kind == NameChar::kLetter || (!first && kind == NameChar::kPartOnly);
    }
    if (!ok) return Fail(ErrorCode::kPropertyNameInvalid);
    first = false;
  }
  return *units;
}

}  // namespace

Result<void> ValidateTableName(std::string_view name) {
  // Azure: spec §9.1 — the length is checked first and has its own code and message.
  if (name.size() < limits::kTableNameMin || name.size() > limits::kTableNameMax) {
    return Fail(ErrorCode::kOutOfRangeInput,
                "The specified resource name length is not within the permissible limits.");
  }
  if (!IsAsciiLetter(name[0])) return Fail(ErrorCode::kInvalidResourceName);
  for (char c : name) {
    if (!IsAsciiLetter(c) && !IsAsciiDigit(c)) return Fail(ErrorCode::kInvalidResourceName);
  }
  if (AsciiIEquals(name, "tables")) return Fail(ErrorCode::kInvalidResourceName);
  return {};
}

Result<void> ValidateKey(std::string_view which, std::string_view value) {
  if (auto units = CheckKey(which, value); !units) return tl::unexpected(std::move(units.error()));
  return {};
}

Result<void> ValidatePropertyName(std::string_view name) {
  if (auto units = CheckPropertyName(name); !units) return tl::unexpected(std::move(units.error()));
  return {};
}

Result<void> ValidateEntity(const Entity& entity) {
  // Emulator: the service's check order is not documented; this one is plausible: keys,
  // property count, names, values, total size.
  const Result<std::size_t> pk_units = CheckKey("PartitionKey", entity.partition_key);
  if (!pk_units) return tl::unexpected(pk_units.error());
  const Result<std::size_t> rk_units = CheckKey("RowKey", entity.row_key);
  if (!rk_units) return tl::unexpected(rk_units.error());
  if (entity.properties.size() > limits::kMaxCustomProperties) {
    return Fail(ErrorCode::kTooManyProperties, {},
                std::to_string(entity.properties.size()) + " custom properties");
  }
  // The system properties count towards the 1 MiB like any other property.
  std::size_t size = PropertyBytes(kPartitionKeyUnits, 2 * *pk_units) +
                     PropertyBytes(kRowKeyUnits, 2 * *rk_units) + PropertyBytes(kTimestampUnits, 8);
  // Every name is checked before any value; a name's UTF-16 length comes from its check.
  for (const Property& p : entity.properties) {
    const Result<std::size_t> name_units = CheckPropertyName(p.name);
    if (!name_units) return tl::unexpected(name_units.error());
    size += PropertyBytes(*name_units, 0);
  }
  for (const Property& p : entity.properties) {
    Result<std::size_t> value_bytes = CheckValue(p.value);
    if (!value_bytes) {
      // The detail names the property (logs, the design advisor's example).
      if (value_bytes.error().code == ErrorCode::kPropertyValueTooLarge) {
        // A string's size is its UTF-16 size, as the limit counts it.
        const std::size_t bytes = p.value.type == EdmType::kString ? 2 * Utf16Length(p.value.bytes)
                                                                   : p.value.bytes.size();
        value_bytes.error().detail = std::string(EdmTypeName(p.value.type)) + " property '" +
                                     p.name + "' of " + std::to_string(bytes) + " bytes";
      }
      return tl::unexpected(std::move(value_bytes.error()));
    }
    size += value_bytes.value();
  }
  if (size > limits::kEntityMaxBytes) {
    return Fail(ErrorCode::kEntityTooLarge, {},
                std::to_string(size) + " bytes as the service counts them");
  }
  return {};
}

}  // namespace malachite
