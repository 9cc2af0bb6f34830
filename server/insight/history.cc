#include "server/insight/history.h"

#include <fmt/format.h>

#include "common/datetime.h"
#include "server/traffic/traffic_endpoints.h"
#include "server/wire/json_writer.h"

namespace malachite::server {
namespace {

std::uint32_t Delta(std::uint64_t now, std::uint64_t before) {
  return now >= before
             ? static_cast<std::uint32_t>(std::min<std::uint64_t>(now - before, UINT32_MAX))
             : 0;
}

std::int64_t UnixMillis(DateTime t) {
  return (t.ticks - kUnixEpochTicks) / (kTicksPerSecond / 1000);
}

void AppendSampleJson(std::string& out, const TrafficSample& s) {
  out += fmt::format("{{\"t\":{},\"requests\":{{", UnixMillis(s.time));
  JsonMembers requests(out);
  for (std::size_t i = 0; i < s.requests.size(); ++i) {
    if (s.requests[i] == 0) continue;
    requests.Key(i < kOperationCount ? OperationName(static_cast<Operation>(i)) : "Unrouted");
    AppendJsonInt(out, s.requests[i]);
  }
  out += "},\"errors\":{";
  JsonMembers errors(out);
  for (std::size_t i = 0; i < s.errors.size(); ++i) {
    if (s.errors[i] == 0) continue;
    errors.Key(Describe(static_cast<ErrorCode>(i)).code);
    AppendJsonInt(out, s.errors[i]);
  }
  out += fmt::format("}},\"throttled\":{},\"faults\":{},\"partitions\":[", s.throttled, s.faults);
  for (std::size_t i = 0; i < s.partitions.size(); ++i) {
    if (i > 0) out += ",";
    AppendPartitionReportJson(out, s.partitions[i]);
  }
  out += "]}";
}

}  // namespace

void TrafficHistory::Add(DateTime now, const TrafficTotals& totals,
                         std::vector<PartitionReport> partitions) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (primed_) {
    TrafficSample sample;
    sample.time = now;
    for (std::size_t i = 0; i < sample.requests.size(); ++i) {
      sample.requests[i] = Delta(totals.counters.requests[i], last_.counters.requests[i]);
    }
    for (std::size_t i = 0; i < sample.errors.size(); ++i) {
      sample.errors[i] = Delta(totals.counters.errors[i], last_.counters.errors[i]);
    }
    sample.throttled = Delta(totals.throttled, last_.throttled);
    sample.faults = Delta(totals.faults, last_.faults);
    sample.partitions = std::move(partitions);
    samples_.push_back(std::move(sample));
    if (samples_.size() > kCapacity) samples_.pop_front();
  }
  last_ = totals;
  primed_ = true;
}

void TrafficHistory::ForgetAccount(std::string_view account) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (TrafficSample& sample : samples_) {
    std::erase_if(sample.partitions,
                  [account](const PartitionReport& p) { return p.account == account; });
  }
}

std::string TrafficHistory::Json(DateTime since, std::uint64_t partition_target) const {
  std::string out =
      fmt::format("{{\"target\":{},\"interval_ms\":1000,\"samples\":[", partition_target);
  std::lock_guard<std::mutex> lock(mutex_);
  bool first = true;
  for (const TrafficSample& sample : samples_) {
    if (sample.time <= since) continue;
    if (!first) out += ",";
    first = false;
    AppendSampleJson(out, sample);
  }
  return out + "]}\n";
}

std::size_t TrafficHistory::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return samples_.size();
}

}  // namespace malachite::server
