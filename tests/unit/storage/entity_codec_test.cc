#include "storage/entity_codec.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "storage/entity_record_dump.h"
#include "storage/key_codec.h"
#include "storage/lmdb_read_view.h"

namespace malachite::storage {
namespace {

Entity Sample() {
  Entity e;
  e.partition_key = "pk";
  e.row_key = "rk";
  e.timestamp = DateTime{638000000000000001};
  e.properties = {
      {"Name", EdmValue::String("x\"y")},
      {"Qty", EdmValue::Int32(-3)},
      {"Big", EdmValue::Int64(std::numeric_limits<std::int64_t>::min())},
      {"Ratio", EdmValue::Double(0.5)},
      {"Ok", EdmValue::Boolean(true)},
      {"When", EdmValue::Time(DateTime{504911232000000000})},
      {"Id", EdmValue::Guid({0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x67,
                             0x89, 0xab, 0xcd, 0xef})},
      {"Raw", EdmValue::Binary(std::string("\0\xff", 2))},
  };
  return e;
}

TEST_CASE("entity_codec: the record dump is canonical", "[storage]") {
  CHECK(DumpEntityRecord(EncodeEntityRecord(Sample())) ==
        "v1 ts=638000000000000001 props=[Name:String=\"x\\\"y\", Qty:Int32=-3, "
        "Big:Int64=-9223372036854775808, Ratio:Double=0.5, Ok:Boolean=true, "
        "When:DateTime=504911232000000000, Id:Guid=01234567-89ab-cdef-0123-456789abcdef, "
        "Raw:Binary=0x00ff]");
  Entity empty;
  CHECK(DumpEntityRecord(EncodeEntityRecord(empty)) == "v1 ts=0 props=[]");
  CHECK(DumpEntityRecord("\x02xxxxxxxxxx").starts_with("<malformed"));
  CHECK(DumpEntityRecord("").starts_with("<malformed"));
}

TEST_CASE("entity_codec: every EDM type round-trips, keys coming from the caller", "[storage]") {
  Entity e = Sample();
  e.properties.push_back({"Nan", EdmValue::Double(std::nan(""))});
  e.properties.push_back({"NegZero", EdmValue::Double(-0.0)});
  e.properties.push_back({"Inf", EdmValue::Double(-std::numeric_limits<double>::infinity())});
  e.properties.push_back({"Max32", EdmValue::Int32(std::numeric_limits<std::int32_t>::max())});
  e.properties.push_back({"Max64", EdmValue::Int64(std::numeric_limits<std::int64_t>::max())});
  e.properties.push_back({"No", EdmValue::Boolean(false)});
  e.properties.push_back({"Empty", EdmValue::String("")});
  e.properties.push_back({"Huge", EdmValue::Binary(std::string(1 << 20, '\xab'))});
  e.properties.push_back({"Utf8", EdmValue::String("\U0001F600\uff01x")});
  auto decoded = DecodeEntity("pk", "rk", EncodeEntityRecord(e));
  REQUIRE(decoded);
  CHECK(*decoded == e);
  CHECK(std::signbit(decoded->Find("NegZero")->value.number));
}

TEST_CASE("entity_codec: one property is read in place without decoding the entity", "[storage]") {
  std::string bytes = EncodeEntityRecord(Sample());
  auto record = EntityRecord::Parse(bytes);
  REQUIRE(record);
  CHECK(record->timestamp() == DateTime{638000000000000001});
  auto qty = record->Find("Qty");
  REQUIRE(qty);
  CHECK(qty->type == EdmType::kInt32);
  CHECK(qty->integer == -3);
  auto raw = record->Find("Raw");
  REQUIRE(raw);
  CHECK(raw->bytes == std::string_view("\0\xff", 2));
  CHECK(raw->bytes.data() >= bytes.data());  // a view into the record, not a copy
  CHECK(raw->bytes.data() < bytes.data() + bytes.size());
  CHECK_FALSE(record->Find("qty"));  // names are case-sensitive
  CHECK_FALSE(record->Find("Missing"));
}

TEST_CASE("entity_codec: Find reads each EDM type in place wherever it stands, and absent names",
          "[storage]") {
  Entity e = Sample();
  e.properties.push_back({"Long", EdmValue::String(std::string(300, 'L'))});  // 2-byte length
  e.properties.push_back({"Far", EdmValue::Int64(-1234567890123)});           // multi-byte varint
  const std::string bytes = EncodeEntityRecord(e);
  EntityRecord record;
  REQUIRE(record.Reset(bytes));
  for (const Property& p : e.properties) {
    INFO(p.name);
    const auto found = record.Find(p.name);
    REQUIRE(found);
    CHECK(found->type == p.value.type);
    CHECK(found->integer == p.value.integer);
    CHECK(found->bytes == p.value.bytes);
    CHECK(std::memcmp(&found->number, &p.value.number, sizeof(double)) == 0);
  }
  CHECK_FALSE(record.Find("Nam"));
  CHECK_FALSE(record.Find("Names"));
  CHECK_FALSE(record.Find(""));
  // A record cut short finds what stands before the cut and nothing after it.
  EntityRecord cut;
  REQUIRE(cut.Reset(std::string_view(bytes).substr(0, bytes.size() - 1)));
  CHECK(cut.Find("Name"));
  CHECK_FALSE(cut.Find("Far"));
}

TEST_CASE("entity_codec: ForEach visits every property in order, as DecodeProperties decodes it",
          "[storage]") {
  const std::string bytes = EncodeEntityRecord(Sample());
  EntityRecord record;
  REQUIRE(record.Reset(bytes));
  std::vector<Property> seen;
  CHECK(record.ForEach([&seen](std::string_view name, const PropertyView& v) {
    seen.push_back(
        {std::string(name), EdmValue{v.type, v.integer, v.number, std::string(v.bytes)}});
  }));
  CHECK(seen == Sample().properties);
  EntityRecord cut;
  REQUIRE(cut.Reset(std::string_view(bytes).substr(0, bytes.size() - 1)));
  int visited = 0;
  CHECK_FALSE(cut.ForEach([&visited](std::string_view, const PropertyView&) { ++visited; }));
  CHECK(visited == static_cast<int>(Sample().properties.size()) - 1);
}

TEST_CASE("entity_codec: an LmdbEntityView decodes encoded keys as DecodeEntityKey does",
          "[storage]") {
  const std::string record = EncodeEntityRecord(Sample());
  // Keys the view decodes, compared with DecodeEntityKey; a view reused from row to row as a scan
  // reuses it.
  LmdbEntityView view;
  const auto check = [&](const std::string& pk, const std::string& rk) {
    const std::string key = EncodeEntityKey(7, pk, rk);
    REQUIRE(view.Reset(key, record));
    std::uint64_t table_id = 0;
    std::string want_pk, want_rk;
    REQUIRE(DecodeEntityKey(key, &table_id, &want_pk, &want_rk));
    CHECK(view.partition_key() == want_pk);
    CHECK(view.row_key() == want_rk);
    CHECK(view.partition_key() == pk);
    CHECK(view.row_key() == rk);
    CHECK(view.EncodedRecord() == record);
    CHECK_FALSE(view.key_error());
  };
  // U+E000 and U+FFFD are stored with remapped lead bytes (key_codec.cc); they come back as is.
  check("p\xee\x80\x80k", "r\xef\xbf\xbd'k");
  check("x", "");
  // Remapped bytes at every offset of the eight-byte steps, among ASCII bytes.
  for (std::size_t at = 0; at < 20; ++at) {
    std::string long_rk(20, 'a');
    long_rk.replace(at, 0, "\xef\xbf\xbd");
    check(long_rk, long_rk);
  }
  // Keys shorter than eight bytes together, and remapped bytes only in a ragged tail.
  check("\xee\x80\x80", "\xef\xbf\xbd");
  check("abcdefghi", "jk\xee\x80\x80");
  check("a", "b");  // a short row after long ones: nothing left over from them
}

TEST_CASE("entity_codec: an LmdbEntityView over a malformed key reads empty keys and says so",
          "[storage]") {
  const std::string record = EncodeEntityRecord(Sample());
  for (const std::string& key : {std::string(8, '\0') + "no terminator", std::string("short")}) {
    LmdbEntityView view;
    REQUIRE(view.Reset(key, record));
    CHECK_FALSE(view.key_error());  // keys are decoded on first use
    CHECK(view.partition_key().empty());
    CHECK(view.row_key().empty());
    CHECK(view.key_error());
  }
}

TEST_CASE("entity_codec: truncated or unknown-version records are errors and not crashes",
          "[storage]") {
  std::string bytes = EncodeEntityRecord(Sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto decoded = DecodeEntity("", "", bytes.substr(0, n));
    CHECK_FALSE(decoded);
  }
  bytes[0] = 9;
  auto parsed = EntityRecord::Parse(bytes);
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().message == "unknown entity record version 9");
}

}  // namespace
}  // namespace malachite::storage
