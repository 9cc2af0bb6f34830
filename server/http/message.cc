#include "server/http/message.h"

#include <algorithm>
#include <iterator>

#include "common/encoding.h"

namespace malachite::server {
namespace {

// The handler's few headers plus the dozen Service::Decorate adds to every response.
constexpr std::size_t kTypicalHeaderCount = 16;

}  // namespace

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
    // A response carries a dozen headers or so (the handler's, then Service's common ones):
    // room for them at once instead of growing 1, 2, 4, 8, 16, 32.
    if (headers.capacity() == 0) headers.reserve(kTypicalHeaderCount);
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
