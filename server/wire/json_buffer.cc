#include "server/wire/json_buffer.h"

#include <algorithm>
#include <utility>

namespace malachite::server {

JsonBuffer::JsonBuffer(std::size_t capacity) {
  storage_.reserve(capacity);
  pos_ = end_ = storage_.data();
}

void JsonBuffer::Grow(std::size_t n) {
  // std::string hands out writable bytes only through resize, which zero-fills them. The text
  // grows a step at a time, so the fill covers about the text itself (while the bytes are about
  // to be written), never a large reserved capacity the text does not reach; past the capacity,
  // resize reallocates with std::string's doubling.
  constexpr std::size_t kStep = 1024;
  const std::size_t used = size();
  storage_.resize(used + std::max(n, kStep));
  pos_ = storage_.data() + used;
  end_ = storage_.data() + storage_.size();
}

std::string JsonBuffer::Take() {
  storage_.resize(size());
  std::string text = std::move(storage_);
  storage_ = std::string();
  pos_ = end_ = storage_.data();
  return text;
}

}  // namespace malachite::server
