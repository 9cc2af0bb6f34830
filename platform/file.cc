// What platform::File does the same on every system: ownership of the handle. Opening, locking,
// sizing and closing it are each system's (posix/files.cc, windows/files.cc).
#include "platform/files.h"

namespace malachite::platform {

File::~File() { Close(); }

File::File(File&& other) noexcept : handle_(other.handle_), path_(std::move(other.path_)) {
  other.handle_ = kClosed;
}

File& File::operator=(File&& other) noexcept {
  if (this != &other) {
    Close();
    handle_ = other.handle_;
    path_ = std::move(other.path_);
    other.handle_ = kClosed;
  }
  return *this;
}

}  // namespace malachite::platform
