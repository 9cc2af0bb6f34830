// The one shape of $filter errors, shared by the lexer, parser and checker.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/error.h"

namespace malachite::odata {

// kInvalidInput with a message naming the byte offset of the problem, e.g.
// "Invalid $filter at position 13: expected a literal after 'eq'".
// Azure: spec §6.3 — syntax errors are 400 InvalidInput; the service's own message text for them
// is not known, so the message says where and why.
inline tl::unexpected<Error> FilterError(std::size_t offset, std::string_view what) {
  std::string message = "Invalid $filter at position ";
  message += std::to_string(offset);
  message += ": ";
  message += what;
  return Fail(ErrorCode::kInvalidInput, std::move(message));
}

}  // namespace malachite::odata
