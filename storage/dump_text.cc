#include "storage/dump_text.h"

#include "common/encoding.h"

namespace malachite::storage {

void AppendDumpEscaped(std::string* out, std::string_view bytes) {
  for (char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(ch);
    } else if (c < 0x20 || c == 0x7F) {
      out->append("\\x");
      AppendHex(*out, std::string_view(&ch, 1));
    } else {
      out->push_back(ch);  // printable ASCII and UTF-8 as is
    }
  }
}

}  // namespace malachite::storage
