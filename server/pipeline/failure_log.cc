#include "server/pipeline/failure_log.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>

#include "common/operation.h"

namespace malachite::server {
namespace {

// A storm of failures (a full disk under 1,000 writers) must not become a storm of log lines.
constexpr int kLinesPerSecond = 20;

std::atomic<std::int64_t> window_second{0};
std::atomic<int> lines_in_window{0};
std::atomic<std::int64_t> left_out{0};

std::int64_t NowSecond() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// True when this line may be written; counts the ones that may not.
bool TakeLogSlot() {
  const std::int64_t now = NowSecond();
  std::int64_t window = window_second.load(std::memory_order_relaxed);
  if (now != window && window_second.compare_exchange_strong(window, now)) {
    lines_in_window.store(0, std::memory_order_relaxed);
  }
  if (lines_in_window.fetch_add(1, std::memory_order_relaxed) < kLinesPerSecond) return true;
  left_out.fetch_add(1, std::memory_order_relaxed);
  return false;
}

}  // namespace

bool IsServerFailure(const Error& error) {
  return error.HttpStatus() >= 500 || error.code == ErrorCode::kInsufficientAccountResources;
}

void FormatFailureLine(const Exchange& exchange, const Error& error, std::string& out) {
  const std::string_view target = exchange.request.target;
  fmt::format_to(std::back_inserter(out), "request {}: {} {} {}: {} {}: {}",
                 exchange.request_id.empty() ? std::string_view("-") : exchange.request_id,
                 exchange.routed ? OperationName(exchange.route.op) : std::string_view("-"),
                 exchange.request.method, target.substr(0, target.find('?')), error.HttpStatus(),
                 error.AzureCode(), error.UserMessage());
  if (!error.detail.empty() && error.detail != error.message) {
    fmt::format_to(std::back_inserter(out), " ({})", error.detail);
  }
  if (!exchange.request.remote_address.empty()) {
    out += " remote=";
    out += exchange.request.remote_address;
  }
}

void LogServerFailure(const Exchange& exchange, const Error& error) {
  if (!IsServerFailure(error)) return;
  const auto level = error.HttpStatus() == 500 ? spdlog::level::err : spdlog::level::warn;
  if (!spdlog::should_log(level) || !TakeLogSlot()) return;
  std::string line;
  FormatFailureLine(exchange, error, line);
  if (const std::int64_t skipped = left_out.exchange(0); skipped > 0) {
    fmt::format_to(std::back_inserter(line), " [{} similar lines left out]", skipped);
  }
  spdlog::log(level, "{}", line);
}

// A burst that ends (the disk-full trial's last 389 refusals) has no next failure line
// to carry its count, so the listener's once-a-second timer calls this. Waiting for the window
// to end keeps the count in one line per burst-second instead of a line per timer tick while
// the burst goes on. The exchange takes the count at most once: a failure line that writes it
// at the same moment leaves 0 here.
void FlushLeftOutFailures(bool now) {
  if (left_out.load(std::memory_order_relaxed) == 0) return;
  if (!now && window_second.load(std::memory_order_relaxed) == NowSecond()) return;
  if (!spdlog::should_log(spdlog::level::warn)) return;
  if (const std::int64_t skipped = left_out.exchange(0); skipped > 0) {
    spdlog::warn("{} similar failure lines left out (at most {} a second are written)", skipped,
                 kLinesPerSecond);
  }
}

}  // namespace malachite::server
