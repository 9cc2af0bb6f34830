#include "server/net/logging.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <vector>

namespace malachite::server {
namespace {

// The %* flag of the JSON pattern: the message payload, JSON-escaped.
class JsonMessageFlag final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    thread_local std::string escaped;
    escaped.clear();
    AppendJsonEscaped(std::string_view(msg.payload.data(), msg.payload.size()), escaped);
    dest.append(escaped.data(), escaped.data() + escaped.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<JsonMessageFlag>();
  }
};

}  // namespace

void AppendJsonEscaped(std::string_view text, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20) {
      out += "\\u00";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    } else {
      out += c;
    }
  }
}

Result<void> ConfigureLogging(const ServerConfig& config) {
  auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  const auto level = spdlog::level::from_str(config.log_level);
  console->set_level(level);
  std::vector<spdlog::sink_ptr> sinks{console};
  if (!config.debug_log_file.empty()) {
    try {
      auto file = std::make_shared<spdlog::sinks::basic_file_sink_mt>(config.debug_log_file);
      file->set_level(spdlog::level::debug);
      sinks.push_back(std::move(file));
    } catch (const spdlog::spdlog_ex& e) {
      return Fail(ErrorCode::kInvalidInput,
                  "cannot open --debug-log '" + config.debug_log_file + "': " + e.what());
    }
  }
  auto logger = std::make_shared<spdlog::logger>("malachite", sinks.begin(), sinks.end());
  // Lines end in "\n" on every system (spdlog's default on Windows is "\r\n"): the launchers,
  // log collectors and tests read one format.
  if (config.log_format == "json") {
    auto formatter = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc,
                                                                 std::string("\n"));
    formatter->add_flag<JsonMessageFlag>('*').set_pattern(
        R"({"time":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","msg":"%*"})");
    logger->set_formatter(std::move(formatter));
  } else {
    // %^..%$ colors the level on a terminal only (the sink checks isatty).
    logger->set_formatter(std::make_unique<spdlog::pattern_formatter>(
        "[%Y-%m-%d %H:%M:%S.%e] [%^%l%$] %v", spdlog::pattern_time_type::local, std::string("\n")));
  }
  // The logger lets through what any sink wants; each sink filters to its own level.
  logger->set_level(config.debug_log_file.empty() ? level : std::min(level, spdlog::level::debug));
  spdlog::set_default_logger(std::move(logger));
  return {};
}

}  // namespace malachite::server
