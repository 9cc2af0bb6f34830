#include "server/http/message.h"

#include "common/encoding.h"

namespace malachite::server {

std::optional<std::string_view> Request::Find(std::string_view name) const {
  for (const auto& header : headers) {
    if (AsciiIEquals(header.name, name)) return std::string_view(header.value);
  }
  return std::nullopt;
}

std::size_t Request::Count(std::string_view name) const {
  std::size_t count = 0;
  for (const auto& header : headers) count += AsciiIEquals(header.name, name) ? 1 : 0;
  return count;
}

void Response::Set(std::string_view name, std::string value) {
  bool placed = false;
  for (auto it = headers.begin(); it != headers.end();) {
    if (!AsciiIEquals(it->name, name)) {
      ++it;
    } else if (!placed) {
      it->value = std::move(value);
      placed = true;
      ++it;
    } else {
      it = headers.erase(it);
    }
  }
  if (!placed) headers.push_back(Header{std::string(name), std::move(value)});
}

std::optional<std::string_view> Response::Find(std::string_view name) const {
  for (const auto& header : headers) {
    if (AsciiIEquals(header.name, name)) return std::string_view(header.value);
  }
  return std::nullopt;
}

}  // namespace malachite::server
