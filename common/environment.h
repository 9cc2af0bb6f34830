// Reading a main()-style environment array: the one lookup the option parsers share (config/,
// the CLI subcommands).
#pragma once

#include <optional>
#include <string_view>

namespace malachite {

// The value of `name` in `envp` (a null-terminated "NAME=value" array as main() receives it; may
// be null): the first entry whose name matches exactly, or nullopt when there is none.
inline std::optional<std::string_view> FindEnv(const char* const* envp, std::string_view name) {
  for (; envp != nullptr && *envp != nullptr; ++envp) {
    std::string_view entry(*envp);
    if (entry.size() > name.size() && entry.starts_with(name) && entry[name.size()] == '=') {
      return entry.substr(name.size() + 1);
    }
  }
  return std::nullopt;
}

}  // namespace malachite
