// Logging setup for the `malachite` binary: spdlog's default logger on stderr (stdout carries
// only the "listening on" line that tests and scripts parse), in text or JSON lines.
#pragma once

#include <string>

#include "common/error.h"
#include "config/server_config.h"

namespace malachite::server {

// Replaces spdlog's default logger with a stderr logger at config.log_level, formatted per
// config.log_format: "text" (colored when stderr is a terminal) or "json": one object per line,
//   {"time":"2024-05-01T12:00:00.123456Z","level":"info","msg":"..."}
// with the message JSON-escaped (UTC timestamps). With config.debug_log_file, a second sink
// appends every line at debug level and above to that file. Fails (kInvalidInput, naming the
// flag) when the file cannot be opened.
Result<void> ConfigureLogging(const ServerConfig& config);

// Appends `text` JSON-escaped (quotes, backslashes, control characters) to `out`, without the
// surrounding quotes. Invalid UTF-8 passes through unchanged.
void AppendJsonEscaped(std::string_view text, std::string& out);

}  // namespace malachite::server
