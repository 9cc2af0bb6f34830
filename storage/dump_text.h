// Text helpers for the storage dumps (DumpEntityKey, DumpEncodedRange, DumpEntityRecord), so
// every dump escapes bytes the same way.
#pragma once

#include <string>
#include <string_view>

namespace malachite::storage {

// Appends `bytes` with '"' and '\' backslash-escaped and control bytes (< 0x20, 0x7F) as \xNN
// (lowercase hex); printable ASCII and UTF-8 sequences are copied as is. No quotes around.
void AppendDumpEscaped(std::string* out, std::string_view bytes);

}  // namespace malachite::storage
