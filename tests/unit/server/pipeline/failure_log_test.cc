#include "server/pipeline/failure_log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <sstream>
#include <thread>

namespace malachite::server {

TEST_CASE("failure_log: 5xx answers and a full store are server failures, client errors are not",
          "[logging]") {
  CHECK(IsServerFailure(Error{ErrorCode::kInternalError, {}, {}}));
  CHECK(IsServerFailure(Error{ErrorCode::kServerBusy, {}, {}}));
  CHECK(IsServerFailure(Error{ErrorCode::kNotImplemented, {}, {}}));
  CHECK(IsServerFailure(Error{ErrorCode::kInsufficientAccountResources, {}, {}}));
  CHECK_FALSE(IsServerFailure(Error{ErrorCode::kInvalidInput, {}, {}}));
  CHECK_FALSE(IsServerFailure(Error{ErrorCode::kRequestBodyTooLarge, {}, {}}));
}

TEST_CASE("failure_log: the line names the request id, operation, path (no query) and cause",
          "[logging]") {
  Exchange exchange;
  exchange.request.method = "POST";
  exchange.request.target = "/devstoreaccount1/t?sig=secret";
  exchange.request.remote_address = "127.0.0.1";
  exchange.request_id = "5f2c";
  exchange.routed = true;
  exchange.route.op = Operation::kInsertEntity;
  std::string line;
  FormatFailureLine(exchange,
                    Error{ErrorCode::kInternalError, "storage: commit: Input/output error",
                          "storage: commit: Input/output error"},
                    line);
  CHECK(line ==
        "request 5f2c: InsertEntity POST /devstoreaccount1/t: 500 InternalError: storage: "
        "commit: Input/output error remote=127.0.0.1");

  Exchange unrouted;
  unrouted.request.method = "PUT";
  unrouted.request.target = "/x";
  line.clear();
  FormatFailureLine(unrouted, Error{ErrorCode::kServerBusy, {}, "bodies fill the budget"}, line);
  CHECK(line ==
        "request -: - PUT /x: 503 ServerBusy: The server is busy. (bodies fill the budget)");
}

namespace {

// Makes the default logger write bare messages into `out` while it lives.
class CapturedLog {
 public:
  explicit CapturedLog(std::ostringstream& out) : previous_(spdlog::default_logger()) {
    auto logger = std::make_shared<spdlog::logger>(
        "captured", std::make_shared<spdlog::sinks::ostream_sink_mt>(out));
    logger->set_formatter(std::make_unique<spdlog::pattern_formatter>(
        "%v", spdlog::pattern_time_type::local, std::string("\n")));  // as logging.cc's
    logger->set_level(spdlog::level::info);
    spdlog::set_default_logger(logger);
  }
  ~CapturedLog() { spdlog::set_default_logger(previous_); }
  CapturedLog(const CapturedLog&) = delete;
  CapturedLog& operator=(const CapturedLog&) = delete;

 private:
  std::shared_ptr<spdlog::logger> previous_;
};

// Sleeps into the next second of the steady clock (the failure log's windows), 20 ms in.
void SleepIntoNextSecond() {
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
  const auto next = std::chrono::duration_cast<std::chrono::seconds>(now) + std::chrono::seconds(1);
  std::this_thread::sleep_for(next - now + std::chrono::milliseconds(20));
}

int CountLines(const std::string& text) {
  int lines = 0;
  for (char c : text) lines += c == '\n' ? 1 : 0;
  return lines;
}

}  // namespace

TEST_CASE(
    "failure_log: a burst's left-out lines are counted in one line once its second is over, "
    "or at once at shutdown",
    "[logging]") {
  std::ostringstream out;
  CapturedLog captured(out);
  FlushLeftOutFailures(true);  // what earlier tests left
  Exchange exchange;
  exchange.request.method = "POST";
  exchange.request.target = "/devstoreaccount1/t";
  const Error full{ErrorCode::kInsufficientAccountResources, {}, "disk full"};

  out.str("");
  SleepIntoNextSecond();
  for (int i = 0; i < 25; ++i) LogServerFailure(exchange, full);
  FlushLeftOutFailures();  // the burst's second is not over: nothing yet
  CHECK(CountLines(out.str()) == 20);
  SleepIntoNextSecond();
  FlushLeftOutFailures();
  FlushLeftOutFailures();  // written once
  const std::string log = out.str();
  CHECK(CountLines(log) == 21);
  CHECK(log.substr(log.rfind('\n', log.size() - 2) + 1) ==
        "5 similar failure lines left out (at most 20 a second are written)\n");

  out.str("");
  SleepIntoNextSecond();
  for (int i = 0; i < 23; ++i) LogServerFailure(exchange, full);
  FlushLeftOutFailures(true);
  CHECK(out.str().substr(out.str().rfind("\n", out.str().size() - 2) + 1) ==
        "3 similar failure lines left out (at most 20 a second are written)\n");
}

}  // namespace malachite::server
