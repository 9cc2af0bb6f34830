// JsonBuffer: the output buffer a large JSON body (a Query Entities page) is written into through a
// raw pointer, so a small append is a bounds check and a copy, not a call into std::string.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace malachite::server {

// A growable byte buffer. `append` and `push_back` take std::string's names and meaning, so the
// JSON writers (json_writer.h) write into either. Not copyable; moving is not needed.
class JsonBuffer {
 public:
  // An empty buffer that holds `capacity` bytes before it reallocates.
  explicit JsonBuffer(std::size_t capacity);
  JsonBuffer(const JsonBuffer&) = delete;
  JsonBuffer& operator=(const JsonBuffer&) = delete;

  // A pointer to at least `n` writable bytes after the text. The caller writes k <= n of them
  // and then calls Advance(k); the pointer is invalid after any other call.
  char* Room(std::size_t n) {
    if (static_cast<std::size_t>(end_ - pos_) < n) Grow(n);
    return pos_;
  }
  // Adds the next `n` bytes written at Room()'s pointer to the text. REQUIRES: n <= what Room
  // granted.
  void Advance(std::size_t n) { pos_ += n; }

  void append(const char* data, std::size_t n) {
    CopyBytes(Room(n), data, n);
    pos_ += n;
  }
  void append(std::string_view text) { append(text.data(), text.size()); }
  void push_back(char c) {
    *Room(1) = c;
    ++pos_;
  }

  std::size_t size() const { return static_cast<std::size_t>(pos_ - storage_.data()); }
  // The text written so far; valid until the next write.
  std::string_view view() const { return {storage_.data(), size()}; }
  // The text written; the buffer is left empty with no capacity.
  std::string Take();

  // Copies `n` bytes from `src` to `dst` (not overlapping; `src` may be null when n == 0). Up
  // to sixteen bytes move as two fixed-size loads and stores that may overlap each other, which
  // the compiler inlines, where a memcpy of a variable length is a call: most JSON keys and
  // many values are that short.
  static void CopyBytes(char* dst, const char* src, std::size_t n) {
    if (n > 16) {
      std::memcpy(dst, src, n);
    } else if (n >= 8) {
      Copy2x<std::uint64_t>(dst, src, n);
    } else if (n >= 4) {
      Copy2x<std::uint32_t>(dst, src, n);
    } else {
      for (std::size_t i = 0; i < n; ++i) dst[i] = src[i];
    }
  }

 private:
  void Grow(std::size_t n);
  // The first and the last sizeof(Word) of `n` bytes. REQUIRES: sizeof(Word) <= n.
  template <class Word>
  static void Copy2x(char* dst, const char* src, std::size_t n) {
    Word head;
    Word tail;
    std::memcpy(&head, src, sizeof head);
    std::memcpy(&tail, src + n - sizeof tail, sizeof tail);
    std::memcpy(dst, &head, sizeof head);
    std::memcpy(dst + n - sizeof tail, &tail, sizeof tail);
  }

  std::string storage_;  // the text is [storage_.data(), pos_); [pos_, end_) is writable
  char* pos_;
  char* end_;
};

}  // namespace malachite::server
