#include "server/traffic/metrics.h"

#include <fmt/format.h>

namespace malachite::server {
namespace {

// Azure: the statuses the Table service answers with (spec §8); anything else is "other".
constexpr std::array<int, 20> kKnownStatuses = {200, 201, 202, 204, 206, 304, 400, 401, 403, 404,
                                                405, 409, 411, 412, 413, 415, 416, 500, 501, 503};

// Histogram bounds in seconds and nanoseconds: 100 us .. 10 s, for requests from a cached point
// read to a query page that used its whole 5 s budget.
constexpr std::array<const char*, 16> kBoundText = {
    "0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025",
    "0.05",   "0.1",     "0.25",   "0.5",   "1",      "2.5",   "5",    "10"};
constexpr std::array<std::int64_t, 16> kBoundNs = {
    100'000,      250'000,      500'000,      1'000'000,    2'500'000,   5'000'000,
    10'000'000,   25'000'000,   50'000'000,   100'000'000,  250'000'000, 500'000'000,
    1000'000'000, 2500'000'000, 5000'000'000, 10000'000'000};

std::size_t StatusIndex(int status) {
  for (std::size_t i = 0; i < kKnownStatuses.size(); ++i) {
    if (kKnownStatuses[i] == status) return i;
  }
  return kKnownStatuses.size();
}

std::string StatusLabel(std::size_t index) {
  return index < kKnownStatuses.size() ? std::to_string(kKnownStatuses[index]) : "other";
}

std::string_view OperationLabel(std::size_t index) {
  constexpr auto kLast = static_cast<std::size_t>(Operation::kPreflight);
  return index <= kLast ? OperationName(static_cast<Operation>(index)) : "Unrouted";
}

}  // namespace

Metrics::Metrics() : stripes_(std::make_unique<Stripe[]>(kStripes)) {}

Metrics::Stripe& Metrics::Mine() {
  static std::atomic<std::size_t> next{0};
  thread_local const std::size_t index = next.fetch_add(1, std::memory_order_relaxed) % kStripes;
  return stripes_[index];
}

void Metrics::Add(Counter counter, std::uint64_t n) {
  Mine().counters[counter].fetch_add(n, std::memory_order_relaxed);
}

std::uint64_t Metrics::Sum(Counter counter) const {
  std::uint64_t total = 0;
  for (std::size_t s = 0; s < kStripes; ++s) {
    total += stripes_[s].counters[counter].load(std::memory_order_relaxed);
  }
  return total;
}

std::uint64_t Metrics::ThrottledTotal() const {
  return Sum(kThrottledPartition) + Sum(kThrottledAccount) + Sum(kThrottledOffline);
}

std::uint64_t Metrics::FaultsTotal() const {
  return Sum(kFaultServerBusy) + Sum(kFaultTimedOut) + Sum(kFaultDelay) + Sum(kFaultDrop);
}

void Metrics::RecordRequest(std::optional<Operation> op, int status,
                            std::chrono::nanoseconds latency) {
  const std::size_t op_index = op ? static_cast<std::size_t>(*op) : kOperations - 1;
  Cell& cell = Mine().cells[op_index * kStatuses + StatusIndex(status)];
  const std::int64_t ns = latency.count();
  std::size_t bucket = 0;
  while (bucket < kBoundNs.size() && ns > kBoundNs[bucket]) ++bucket;
  cell.buckets[bucket].fetch_add(1, std::memory_order_relaxed);
  cell.sum_ns.fetch_add(static_cast<std::uint64_t>(ns > 0 ? ns : 0), std::memory_order_relaxed);
}

void Metrics::AddThrottled(ThrottleVerdict verdict) {
  switch (verdict) {
    case ThrottleVerdict::kPartitionBusy:
      return Add(kThrottledPartition, 1);
    case ThrottleVerdict::kAccountBusy:
      return Add(kThrottledAccount, 1);
    case ThrottleVerdict::kPartitionOffline:
      return Add(kThrottledOffline, 1);
    case ThrottleVerdict::kAdmitted:
      return;
  }
}

void Metrics::AddFault(FaultKind fault) {
  switch (fault) {
    case FaultKind::kServerBusy:
      return Add(kFaultServerBusy, 1);
    case FaultKind::kOperationTimedOut:
      return Add(kFaultTimedOut, 1);
    case FaultKind::kDelay:
      return Add(kFaultDelay, 1);
    case FaultKind::kDropConnection:
      return Add(kFaultDrop, 1);
  }
}

void Metrics::Render(std::string& out) const {
  auto append = [&out](std::string_view text) { out.append(text); };
  append("# HELP malachite_requests_total Requests answered, by Azure operation and status.\n");
  append("# TYPE malachite_requests_total counter\n");
  std::string histogram =
      "# HELP malachite_request_duration_seconds Time from parsed request to response ready.\n"
      "# TYPE malachite_request_duration_seconds histogram\n";
  for (std::size_t op = 0; op < kOperations; ++op) {
    for (std::size_t status = 0; status < kStatuses; ++status) {
      std::array<std::uint64_t, kBuckets> counts{};
      std::uint64_t sum_ns = 0;
      for (std::size_t s = 0; s < kStripes; ++s) {
        const Cell& cell = stripes_[s].cells[op * kStatuses + status];
        for (std::size_t b = 0; b < kBuckets; ++b) {
          counts[b] += cell.buckets[b].load(std::memory_order_relaxed);
        }
        sum_ns += cell.sum_ns.load(std::memory_order_relaxed);
      }
      std::uint64_t total = 0;
      for (std::uint64_t c : counts) total += c;
      if (total == 0) continue;
      const std::string labels =
          fmt::format("operation=\"{}\",status=\"{}\"", OperationLabel(op), StatusLabel(status));
      out += fmt::format("malachite_requests_total{{{}}} {}\n", labels, total);
      std::uint64_t cumulative = 0;
      for (std::size_t b = 0; b < kBuckets; ++b) {
        cumulative += counts[b];
        histogram +=
            fmt::format("malachite_request_duration_seconds_bucket{{{},le=\"{}\"}} {}\n", labels,
                        b < kBoundText.size() ? kBoundText[b] : "+Inf", cumulative);
      }
      histogram += fmt::format("malachite_request_duration_seconds_sum{{{}}} {:.9f}\n", labels,
                               static_cast<double>(sum_ns) / 1e9);
      histogram +=
          fmt::format("malachite_request_duration_seconds_count{{{}}} {}\n", labels, total);
    }
  }
  out += histogram;
  out += fmt::format(
      "# HELP malachite_entities_total Entities counted toward the scalability targets.\n"
      "# TYPE malachite_entities_total counter\n"
      "malachite_entities_total{{kind=\"written\"}} {}\n"
      "malachite_entities_total{{kind=\"scanned\"}} {}\n",
      Sum(kWritten), Sum(kScanned));
  out += fmt::format(
      "# HELP malachite_throttled_requests_total Requests answered 503 ServerBusy by the "
      "throttle, by the limit that refused them.\n"
      "# TYPE malachite_throttled_requests_total counter\n"
      "malachite_throttled_requests_total{{limit=\"partition\"}} {}\n"
      "malachite_throttled_requests_total{{limit=\"account\"}} {}\n"
      "malachite_throttled_requests_total{{limit=\"offline\"}} {}\n",
      Sum(kThrottledPartition), Sum(kThrottledAccount), Sum(kThrottledOffline));
  out += fmt::format(
      "# HELP malachite_faults_injected_total Requests a fault rule fired on, by fault.\n"
      "# TYPE malachite_faults_injected_total counter\n"
      "malachite_faults_injected_total{{fault=\"ServerBusy\"}} {}\n"
      "malachite_faults_injected_total{{fault=\"OperationTimedOut\"}} {}\n"
      "malachite_faults_injected_total{{fault=\"Delay\"}} {}\n"
      "malachite_faults_injected_total{{fault=\"DropConnection\"}} {}\n",
      Sum(kFaultServerBusy), Sum(kFaultTimedOut), Sum(kFaultDelay), Sum(kFaultDrop));
}

}  // namespace malachite::server
