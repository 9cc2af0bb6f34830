#include "server/http/message.h"

#include <algorithm>
#include <iterator>

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
  auto named = [name](const Header& header) { return AsciiIEquals(header.name, name); };
  auto first = std::find_if(headers.begin(), headers.end(), named);
  if (first == headers.end()) {
    headers.push_back(Header{std::string(name), std::move(value)});
    return;
  }
  // The first one keeps its place and takes the value; later ones go.
  first->value = std::move(value);
  headers.erase(std::remove_if(std::next(first), headers.end(), named), headers.end());
}

std::optional<std::string_view> Response::Find(std::string_view name) const {
  for (const auto& header : headers) {
    if (AsciiIEquals(header.name, name)) return std::string_view(header.value);
  }
  return std::nullopt;
}

}  // namespace malachite::server
