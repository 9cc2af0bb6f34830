#include "bench/bench_stats.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace malachite::bench {

double LatencyRecorder::Percentile(double p) {
  if (samples_.empty()) return 0;
  if (!sorted_) {
    std::sort(samples_.begin(), samples_.end());
    sorted_ = true;
  }
  auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(samples_.size())));
  rank = std::clamp<std::size_t>(rank, 1, samples_.size());
  return samples_[rank - 1];
}

std::optional<double> ProcessCpuSeconds(int pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!file || !std::getline(file, text)) return std::nullopt;
  // Field 2 (comm) is parenthesised and may contain spaces: parse after the last ')'.
  auto close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(text.substr(close + 2));
  // After comm: field 3 is state; utime and stime are fields 14 and 15 (1-based).
  std::string field;
  unsigned long long utime = 0;
  unsigned long long stime = 0;
  for (int index = 3; index <= 15 && fields >> field; ++index) {
    if (index == 14) utime = std::stoull(field);
    if (index == 15) stime = std::stoull(field);
  }
  if (!fields) return std::nullopt;
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace malachite::bench
