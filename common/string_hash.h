// A transparent hash for string-keyed unordered maps: lookups by std::string_view (or a literal)
// find std::string keys without building a std::string per lookup (with std::equal_to<>).
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace malachite {

struct TransparentStringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view key) const { return std::hash<std::string_view>{}(key); }
};

}  // namespace malachite
