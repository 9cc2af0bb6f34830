#include "common/validation.h"

#include <catch2/catch.hpp>

namespace malachite {
namespace {

// "ok", or "<AzureCode>: <user message>".
std::string Show(const Result<void>& r) {
  if (r) return "ok";
  return std::string(r.error().AzureCode()) + ": " + std::string(r.error().UserMessage());
}

std::string Code(const Result<void>& r) { return r ? "ok" : std::string(r.error().AzureCode()); }

const std::string kBadLength =
    "OutOfRangeInput: The specified resource name length is not within the permissible limits.";
const std::string kBadName =
    "InvalidResourceName: The specifed resource name contains invalid characters.";

TEST_CASE("validation: table names are 3-63 alphanumerics starting with a letter", "[common]") {
  CHECK(Show(ValidateTableName("abc")) == "ok");
  CHECK(Show(ValidateTableName("MyTable2024")) == "ok");
  CHECK(Show(ValidateTableName(std::string(63, 'a'))) == "ok");
  CHECK(Show(ValidateTableName("ab")) == kBadLength);
  CHECK(Show(ValidateTableName("")) == kBadLength);
  CHECK(Show(ValidateTableName(std::string(64, 'a'))) == kBadLength);
  CHECK(Show(ValidateTableName("1abc")) == kBadName);
  CHECK(Show(ValidateTableName("my-table")) == kBadName);
  CHECK(Show(ValidateTableName("my_table")) == kBadName);
  CHECK(Show(ValidateTableName("$MetricsTable")) == kBadName);
  CHECK(Show(ValidateTableName("tabl\xc3\xa9")) == kBadName);
}

TEST_CASE("validation: the reserved name tables is refused in any case", "[common]") {
  CHECK(Show(ValidateTableName("tables")) == kBadName);
  CHECK(Show(ValidateTableName("TaBlEs")) == kBadName);
  CHECK(Show(ValidateTableName("tables1")) == "ok");
}

TEST_CASE("validation: keys over 1024 UTF-16 units fail naming the key", "[common]") {
  CHECK(Show(ValidateKey("PartitionKey", "")) == "ok");
  CHECK(Show(ValidateKey("PartitionKey", std::string(1024, 'k'))) == "ok");
  CHECK(Show(ValidateKey("RowKey", std::string(1025, 'k'))) ==
        "KeyValueTooLarge: The 'RowKey' property exceeds the maximum allowed key size (2KB). It "
        "is a UTF-16 encoded string and the maximum number of characters should be 1K or less.");
  CHECK(Show(ValidateKey("PartitionKey", std::string(1025, 'k'))) ==
        "KeyValueTooLarge: The 'PartitionKey' property exceeds the maximum allowed key size "
        "(2KB). It is a UTF-16 encoded string and the maximum number of characters should be 1K "
        "or less.");
  // 512 emoji are 1024 UTF-16 units (2048 UTF-8 bytes); 513 are too many.
  std::string emoji;
  for (int i = 0; i < 512; ++i) emoji += "\xf0\x9f\x98\x80";
  CHECK(Code(ValidateKey("RowKey", emoji)) == "ok");
  CHECK(Code(ValidateKey("RowKey", emoji + "\xf0\x9f\x98\x80")) == "KeyValueTooLarge");
}

TEST_CASE("validation: forbidden key characters are OutOfRangeInput", "[common]") {
  for (std::string_view bad : std::initializer_list<std::string_view>{
           "a/b", "a\\b", "a#b", "a?b", std::string_view("a\0b", 3), "a\tb", "a\x1f", "a\x7f",
           "a\xc2\x80", "a\xc2\x9f"}) {
    INFO(bad);
    CHECK(Code(ValidateKey("PartitionKey", bad)) == "OutOfRangeInput");
  }
  CHECK(Code(ValidateKey("RowKey", "r'1 caf\xc3\xa9 \xc2\xa0 & % *")) == "ok");
  CHECK(Code(ValidateKey("RowKey", "bad\xff")) == "InvalidInput");
  // Invalid UTF-8 is reported before length, length before a forbidden character.
  CHECK(Code(ValidateKey("RowKey", std::string(1100, '/') + "\xff")) == "InvalidInput");
  CHECK(Code(ValidateKey("RowKey", std::string(1025, '/'))) == "KeyValueTooLarge");
  CHECK(Code(ValidateKey("RowKey", std::string(1024, '/'))) == "OutOfRangeInput");
  CHECK(Code(ValidateKey("RowKey", "a/\xff")) == "InvalidInput");
}

TEST_CASE("validation: property names follow the C# identifier rule", "[common]") {
  for (std::string_view good :
       {"a", "_", "Name", "_private", "x1", "Caf\xc3\xa9", "\xc3\xa9t\xc3\xa9",
        "\xe5\x90\x8d\xe5\x89\x8d", "\xd0\x98\xd0\xbc\xd1\x8f", "a\xcc\x81", "A_b_C"}) {
    INFO(good);
    CHECK(Show(ValidatePropertyName(good)) == "ok");
  }
  for (std::string_view bad : {"", "1abc", "my-prop", "my prop", "a@b", "a.b", "odata.etag", "a$",
                               "\xcc\x81"
                               "a",
                               "a\xe2\x80\x94"
                               "b",
                               "a\xc2\xa0"
                               "b",
                               "a\xc2\xb7"
                               "b",
                               "a\xe3\x80\x80"
                               "b",
                               "\xc3\x97", "a\x01", "bad\xff"}) {
    INFO(bad);
    CHECK(Show(ValidatePropertyName(bad)) == "PropertyNameInvalid: The property name is invalid.");
  }
}

TEST_CASE("validation: property names longer than 255 characters are too long", "[common]") {
  CHECK(Show(ValidatePropertyName(std::string(255, 'p'))) == "ok");
  CHECK(Show(ValidatePropertyName(std::string(256, 'p'))) ==
        "PropertyNameTooLong: The property name exceeds the maximum allowed length (255).");
}

Entity MakeEntity(std::size_t custom_properties) {
  Entity e;
  e.partition_key = "pk";
  e.row_key = "rk";
  for (std::size_t i = 0; i < custom_properties; ++i) {
    e.properties.push_back({"p" + std::to_string(i), EdmValue::Int32(1)});
  }
  return e;
}

TEST_CASE("validation: at most 252 custom properties", "[common]") {
  CHECK(Show(ValidateEntity(MakeEntity(252))) == "ok");
  CHECK(Show(ValidateEntity(MakeEntity(253))) ==
        "TooManyProperties: The entity contains more properties than allowed. Each entity can "
        "include up to 252 properties to store data. Each entity also has 3 system properties.");
}

const std::string kValueTooLarge =
    "PropertyValueTooLarge: The property value exceeds the maximum allowed size (64KB). If the "
    "property value is a string, it is UTF-16 encoded and the maximum number of characters "
    "should be 32K or less.";

TEST_CASE("validation: strings up to 32K UTF-16 units and binaries up to 64 KiB", "[common]") {
  Entity e = MakeEntity(0);
  e.properties.push_back({"S", EdmValue::String(std::string(32768, 's'))});
  CHECK(Show(ValidateEntity(e)) == "ok");
  e.properties[0].value.bytes.push_back('s');
  CHECK(Show(ValidateEntity(e)) == kValueTooLarge);
  // 2-byte UTF-8 characters are still one UTF-16 unit each.
  e.properties[0].value.bytes.clear();
  for (int i = 0; i < 32768; ++i) e.properties[0].value.bytes += "\xc3\xa9";
  CHECK(Show(ValidateEntity(e)) == "ok");

  e.properties[0].value = EdmValue::Binary(std::string(65536, 'b'));
  CHECK(Show(ValidateEntity(e)) == "ok");
  e.properties[0].value.bytes.push_back('b');
  CHECK(Show(ValidateEntity(e)) == kValueTooLarge);
}

TEST_CASE("validation: entities over 1 MiB by the spec accounting are too large", "[common]") {
  // 15 strings of 32768 units: 15 * (4 + 2*2 + 65536) = 983160 bytes plus system properties.
  Entity e = MakeEntity(0);
  for (int i = 0; i < 15; ++i) {
    e.properties.push_back({"S" + std::to_string(i % 10) + (i >= 10 ? "x" : ""),
                            EdmValue::String(std::string(32768, 's'))});
  }
  CHECK(Show(ValidateEntity(e)) == "ok");
  e.properties.push_back({"Tail", EdmValue::String(std::string(32768, 's'))});
  CHECK(Show(ValidateEntity(e)) ==
        "EntityTooLarge: The entity is larger than the maximum allowed size (1MB).");
}

TEST_CASE("validation: ValidateEntity checks keys, then count, names, values", "[common]") {
  Entity e = MakeEntity(253);
  e.row_key = "a/b";
  CHECK(Code(ValidateEntity(e)) == "OutOfRangeInput");
  e.row_key = "ok";
  e.properties[0].name = "bad-name";
  CHECK(Code(ValidateEntity(e)) == "TooManyProperties");
  e.properties.resize(2);
  e.properties[1].value = EdmValue::Binary(std::string(70000, 'b'));
  CHECK(Code(ValidateEntity(e)) == "PropertyNameInvalid");
  e.properties[0].name = "good";
  CHECK(Code(ValidateEntity(e)) == "PropertyValueTooLarge");
  e.partition_key = std::string(1025, 'p');
  CHECK(Code(ValidateEntity(e)) == "KeyValueTooLarge");
}

}  // namespace
}  // namespace malachite

namespace malachite {
namespace {

TEST_CASE("validation: a property name counts by its UTF-16 units towards the 1 MiB", "[common]") {
  Entity e = MakeEntity(0);
  for (int i = 0; i < 15; ++i) {
    e.properties.push_back({"S" + std::to_string(i % 10) + (i >= 10 ? "x" : ""),
                            EdmValue::String(std::string(32768, 's'))});
  }
  const auto with_last = [&](std::string name, std::size_t binary_bytes) {
    Entity copy = e;
    copy.properties.push_back({std::move(name), EdmValue::Binary(std::string(binary_bytes, 'b'))});
    return Code(ValidateEntity(copy));
  };
  // The largest last value that fits behind a three-unit ASCII name.
  std::size_t low = 0;
  std::size_t high = 65536;
  REQUIRE(with_last("abc", low) == "ok");
  REQUIRE(with_last("abc", high) == "EntityTooLarge");
  while (high - low > 1) {
    const std::size_t mid = (low + high) / 2;
    (with_last("abc", mid) == "ok" ? low : high) = mid;
  }
  // "é名x": six UTF-8 bytes, three UTF-16 units.
  const std::string non_ascii = "\xc3\xa9\xe5\x90\x8dx";
  CHECK(with_last(non_ascii, low) == "ok");
  CHECK(with_last(non_ascii, low + 1) == "EntityTooLarge");
  CHECK(with_last("abcdef", low) == "EntityTooLarge");
  CHECK(with_last("abcdef", low - 6) == "ok");
}

}  // namespace
}  // namespace malachite
