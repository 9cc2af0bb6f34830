// LEB128 varints, zigzag and a bounds-checked reader for the storage records.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace malachite::storage {

inline void AppendVarint(std::string* out, std::uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

inline std::uint64_t ZigZag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
inline std::int64_t UnZigZag(std::uint64_t v) {
  return static_cast<std::int64_t>((v >> 1) ^ (~(v & 1) + 1));
}

// Reads forward through `bytes`; every method returns false (and consumes nothing useful) when
// the input is too short or malformed.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : p_(bytes) {}

  bool Byte(std::uint8_t* out) {
    if (p_.empty()) return false;
    *out = static_cast<std::uint8_t>(p_[0]);
    p_.remove_prefix(1);
    return true;
  }
  bool Varint(std::uint64_t* out) {
    // One or two bytes (values below 16384: lengths, most integers) without the loop.
    if (!p_.empty() && (static_cast<std::uint8_t>(p_[0]) & 0x80) == 0) {
      *out = static_cast<std::uint8_t>(p_[0]);
      p_.remove_prefix(1);
      return true;
    }
    if (p_.size() >= 2 && (static_cast<std::uint8_t>(p_[1]) & 0x80) == 0) {
      *out = (static_cast<std::uint8_t>(p_[0]) & 0x7Fu) |
             (static_cast<std::uint64_t>(static_cast<std::uint8_t>(p_[1])) << 7);
      p_.remove_prefix(2);
      return true;
    }
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64 && !p_.empty(); shift += 7) {
      auto c = static_cast<std::uint8_t>(p_[0]);
      p_.remove_prefix(1);
      v |= static_cast<std::uint64_t>(c & 0x7F) << shift;
      if ((c & 0x80) == 0) {
        *out = v;
        return true;
      }
    }
    return false;
  }
  bool Bytes(std::uint64_t n, std::string_view* out) {
    if (n > p_.size()) return false;
    *out = p_.substr(0, n);
    p_.remove_prefix(n);
    return true;
  }
  bool Skip(std::uint64_t n) {
    if (n > p_.size()) return false;
    p_.remove_prefix(n);
    return true;
  }
  std::string_view rest() const { return p_; }
  bool empty() const { return p_.empty(); }

 private:
  std::string_view p_;
};

}  // namespace malachite::storage
