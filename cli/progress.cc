#include "cli/progress.h"

#include <cstdio>

namespace malachite::cli {

Progress::Progress(std::string label, bool enabled)
    : label_(std::move(label)), enabled_(enabled), start_(std::chrono::steady_clock::now()) {}

double Progress::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string Progress::Group(std::uint64_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(i, ",");
  return digits;
}

std::string Progress::Line(const std::string& label, std::uint64_t entities, double seconds,
                           std::uint64_t position, std::uint64_t total) {
  const double rate = seconds > 0 ? static_cast<double>(entities) / seconds : 0;
  std::string line = label + ": " + Group(entities) + " entities  " +
                     Group(static_cast<std::uint64_t>(rate)) + "/s";
  if (total > 0 && position <= total) {
    const double done = static_cast<double>(position) / static_cast<double>(total);
    line += "  " + std::to_string(static_cast<int>(done * 100)) + "%";
    if (done > 0) {
      const auto left = static_cast<std::uint64_t>(seconds * (1 - done) / done);
      char eta[32];
      std::snprintf(eta, sizeof eta, " ETA %llu:%02llu", static_cast<unsigned long long>(left / 60),
                    static_cast<unsigned long long>(left % 60));
      line += eta;
    }
  }
  return line;
}

void Progress::Update(std::uint64_t entities, std::uint64_t position, std::uint64_t total) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  drawn_ = true;
  std::fprintf(stderr, "\r\033[K%s", Line(label_, entities, seconds(), position, total).c_str());
  std::fflush(stderr);
}

void Progress::Finish(std::uint64_t entities) {
  const double s = seconds();
  if (drawn_) std::fputs("\r\033[K", stderr);
  std::fprintf(
      stderr, "%s: %s entities in %.2f s (%s/s)\n", label_.c_str(), Group(entities).c_str(), s,
      Group(static_cast<std::uint64_t>(s > 0 ? static_cast<double>(entities) / s : 0)).c_str());
}

}  // namespace malachite::cli
