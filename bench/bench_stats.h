// Measurements for the load tool: latency percentiles and a process's CPU time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace malachite::bench {

// Latencies of one scenario run, in microseconds.
class LatencyRecorder {
 public:
  void Record(double micros) { samples_.push_back(micros); }
  std::size_t Count() const { return samples_.size(); }
  // The p-th percentile (0 < p <= 100) by nearest rank; 0 when empty. Sorts the samples.
  double Percentile(double p);

 private:
  std::vector<double> samples_;
  bool sorted_ = false;
};

// user + system CPU time of process `pid` in seconds, from /proc/<pid>/stat (utime + stime).
// nullopt when the process does not exist or the file cannot be parsed.
std::optional<double> ProcessCpuSeconds(int pid);

}  // namespace malachite::bench
