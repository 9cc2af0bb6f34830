#include "server/pipeline/access_log.h"

#include <fmt/format.h>

namespace malachite::server {
namespace {

// Appends `target` with every sig= value replaced. Only the query part can hold one.
void AppendRedactedTarget(std::string_view target, std::string& out) {
  const std::size_t query = target.find('?');
  if (query == std::string_view::npos) {
    out += target;
    return;
  }
  out += target.substr(0, query + 1);
  std::string_view rest = target.substr(query + 1);
  for (;;) {
    const std::size_t amp = rest.find('&');
    const std::string_view param = rest.substr(0, amp);
    const bool sig =
        param.size() >= 4 && (param.substr(0, 4) == "sig=" || param.substr(0, 4) == "SIG=");
    out += sig ? std::string_view("sig=REDACTED") : param;
    if (amp == std::string_view::npos) break;
    out += '&';
    rest = rest.substr(amp + 1);
  }
}

}  // namespace

void FormatAccessLine(const Exchange& exchange, std::string_view remote,
                      std::chrono::microseconds duration, std::string& out) {
  out += exchange.request.method;
  out += ' ';
  AppendRedactedTarget(exchange.request.target, out);
  fmt::format_to(std::back_inserter(out), " {} {}us", exchange.response.status, duration.count());
  if (!exchange.request_id.empty()) {
    out += " id=";
    out += exchange.request_id;
  }
  if (exchange.query_stats) {
    fmt::format_to(std::back_inserter(out), " scanned={} returned={}",
                   exchange.query_stats->scanned, exchange.query_stats->returned);
  }
  if (!remote.empty()) {
    out += " remote=";
    out += remote;
  }
}

}  // namespace malachite::server
