// The access log: one line per request (method, target, status, duration, request id, entities
// scanned/returned, peer), written by the session at ServerConfig::access_log_level.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "server/pipeline/exchange.h"

namespace malachite::server {

// Appends the access line of a finished exchange to `out`, logfmt-style so that both a human and
// a collector can read it (in --log-format json it becomes the "msg" of one JSON object):
//   GET /devstoreaccount1/t()?$filter=... 200 153us id=<x-ms-request-id> scanned=4 returned=2
//   remote=127.0.0.1
// scanned/returned only for queries. The value of a `sig=` query parameter (a SAS signature) is
// replaced by "REDACTED": logs must not carry credentials.
void FormatAccessLine(const Exchange& exchange, std::string_view remote,
                      std::chrono::microseconds duration, std::string& out);

}  // namespace malachite::server
