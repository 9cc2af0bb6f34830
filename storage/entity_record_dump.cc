#include "storage/entity_record_dump.h"

#include <cinttypes>
#include <cstdio>

#include "common/encoding.h"
#include "storage/dump_text.h"
#include "storage/entity_codec.h"

namespace malachite::storage {
namespace {

void AppendValue(std::string* out, const EdmValue& v) {
  char buf[40];
  switch (v.type) {
    case EdmType::kString:
      out->push_back('"');
      AppendDumpEscaped(out, v.bytes);
      out->push_back('"');
      return;
    case EdmType::kBinary:
      out->append("0x");
      AppendHex(*out, v.bytes);
      return;
    case EdmType::kGuid:  // always 16 bytes (EdmValue contract)
      out->append(FormatGuid(v.bytes));
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
