// DumpEntityRecord: the canonical printable form of an entity record (tests compare it).
#include <cinttypes>
#include <cstdio>

#include "storage/entity_codec.h"

namespace malachite::storage {
namespace {

void AppendHex(std::string* out, std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (char ch : bytes) {
    auto c = static_cast<unsigned char>(ch);
    out->push_back(kDigits[c >> 4]);
    out->push_back(kDigits[c & 15]);
  }
}

void AppendQuoted(std::string* out, std::string_view text) {
  out->push_back('"');
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(ch);
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out->append(buf);
    } else {
      out->push_back(ch);
    }
  }
  out->push_back('"');
}

void AppendValue(std::string* out, const EdmValue& v) {
  char buf[40];
  switch (v.type) {
    case EdmType::kString:
      AppendQuoted(out, v.bytes);
      return;
    case EdmType::kBinary:
      out->append("0x");
      AppendHex(out, v.bytes);
      return;
    case EdmType::kGuid:
      for (std::size_t i = 0; i < v.bytes.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out->push_back('-');
        AppendHex(out, v.bytes.substr(i, 1));
      }
      return;
    case EdmType::kDouble:
      std::snprintf(buf, sizeof buf, "%.17g", v.number);
      break;
    case EdmType::kBoolean:
      out->append(v.integer != 0 ? "true" : "false");
      return;
    default:  // Int32, Int64, DateTime ticks
      std::snprintf(buf, sizeof buf, "%" PRId64, v.integer);
      break;
  }
  out->append(buf);
}

}  // namespace

std::string DumpEntityRecord(std::string_view record) {
  auto entity = DecodeEntity({}, {}, record);
  if (!entity) return "<malformed " + entity.error().message + ">";
  std::string out = "v" + std::to_string(static_cast<unsigned char>(record[0])) +
                    " ts=" + std::to_string(entity->timestamp.ticks) + " props=[";
  bool first = true;
  for (const Property& p : entity->properties) {
    if (!first) out.append(", ");
    first = false;
    out.append(p.name);
    out.push_back(':');
    std::string_view type_name = EdmTypeName(p.value.type);
    out.append(type_name.substr(type_name.find('.') + 1));  // "Edm.Int32" -> "Int32"
    out.push_back('=');
    AppendValue(&out, p.value);
  }
  out.push_back(']');
  return out;
}

}  // namespace malachite::storage
