// The import/export progress line on a terminal: entities so far, entities per second, and with
// a known total the share done and the time left. Redrawn in place at most five times a second,
// only when stderr is a terminal; Finish prints the summary line either way.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace malachite::cli {

class Progress {
 public:
  // `label` names the work ("import orders.jsonl -> orders"). `enabled`: draw the live line.
  Progress(std::string label, bool enabled);
  // Records `entities` done and the position reached of `total` (same unit, e.g. bytes; total 0:
  // unknown). Cheap when it does not redraw.
  void Update(std::uint64_t entities, std::uint64_t position, std::uint64_t total);
  // Prints "<label>: N entities in S s (R/s)" on its own line.
  void Finish(std::uint64_t entities);
  double seconds() const;

  // "12,345" (for the lines above; tested).
  static std::string Group(std::uint64_t n);
  // The live line's text for the given figures, e.g.
  // "import a.jsonl: 12,345 entities  6,172/s  41% ETA 0:03".
  static std::string Line(const std::string& label, std::uint64_t entities, double seconds,
                          std::uint64_t position, std::uint64_t total);

 private:
  std::string label_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_{};
  bool drawn_ = false;
};

}  // namespace malachite::cli
