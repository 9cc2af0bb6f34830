// The log of failures the server itself produced: every 5xx answer (except the ones throttling
// or a fault rule chose on purpose) and a full store, each one line naming the request id (the
// x-ms-request-id the client got), the operation and the cause, so that an answer a client
// reports can be found in the log.
#pragma once

#include <string>

#include "common/error.h"
#include "server/pipeline/exchange.h"

namespace malachite::server {

// True when `error` is worth a line at the default log level: any 5xx, and
// 409 InsufficientAccountResources (the disk or the LMDB map is full).
bool IsServerFailure(const Error& error);

// Appends the line for `error` answering `exchange` to `out`:
//   request <id>: <Operation|-> <METHOD> <path>: <status> <AzureCode>: <message>[ (<detail>)]
//   remote=<address>
// The path is the target without its query (which may carry a SAS signature).
void FormatFailureLine(const Exchange& exchange, const Error& error, std::string& out);

// Logs `error` answering `exchange` when IsServerFailure: at error for 500, at warn otherwise
// (501, 503 load shedding, a full store). At most 20 lines a second are written; the next line
// written says how many were left out, or FlushLeftOutFailures does. Thread-safe.
void LogServerFailure(const Exchange& exchange, const Error& error);

// When failure lines were left out and no line has said so yet, writes one line (at warn)
//   <N> similar failure lines left out (at most 20 a second are written)
// once the second they were left out in is over, or at once with `now` (at shutdown). Does
// nothing otherwise. Called once a second by the listener's timer and at its stop; thread-safe,
// and the count is written once, by this or by the next failure line.
void FlushLeftOutFailures(bool now = false);

}  // namespace malachite::server
