// UTF-8 <-> UTF-16 for the Windows implementations: the server's paths are UTF-8 strings, the
// system's "W" calls take UTF-16.
#pragma once

#include <string>

namespace malachite::platform {

std::wstring Wide(const std::string& utf8);

}  // namespace malachite::platform
