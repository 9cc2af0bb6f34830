// Paths to and from the UTF-8 strings the server keeps them in (flags, config, messages).
// std::filesystem::path reads a std::string in the system's narrow encoding: UTF-8 on POSIX, but
// the ANSI code page on Windows, where a name with a character outside it ("数据" under code page
// 1252) would name another file or none. These two read and write UTF-8 on every system, the
// same code on each (so not in platform/). Every path made from a name the server was given goes
// through Utf8Path.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace malachite {

// The path whose name is `utf8`.
inline std::filesystem::path Utf8Path(std::string_view utf8) {
  return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

// The name of `path` in UTF-8.
inline std::string PathUtf8(const std::filesystem::path& path) {
  const std::u8string name = path.u8string();
  return std::string(name.begin(), name.end());
}

}  // namespace malachite
