// UTF-8 <-> UTF-16 for the Windows implementations: the server's paths are UTF-8 strings, the
// system's "W" calls take UTF-16.
#pragma once

#include <string>
#include <string_view>

namespace malachite::platform {

// `utf8` in UTF-16; an invalid sequence becomes U+FFFD.
std::wstring Wide(const std::string& utf8);

// `utf16` in UTF-8; an unpaired surrogate becomes U+FFFD.
std::string Utf8(std::wstring_view utf16);

}  // namespace malachite::platform
