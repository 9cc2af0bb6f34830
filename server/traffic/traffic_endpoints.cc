#include "server/traffic/traffic_endpoints.h"

#include <fmt/format.h>

#include <charconv>

#include "common/encoding.h"
#include "server/http/url_coding.h"
#include "server/wire/json_writer.h"

namespace malachite::server {
namespace {

constexpr std::string_view kFaultsPrefix = "/-/faults/";
constexpr std::size_t kDefaultTop = 20;
constexpr std::size_t kMaxTop = 1000;

std::string_view PathOf(std::string_view target) { return target.substr(0, target.find('?')); }

// The value of query parameter `name`, percent-decoded, or nullopt.
std::optional<std::string> QueryParam(std::string_view target, std::string_view name) {
  const std::size_t q = target.find('?');
  if (q == std::string_view::npos) return std::nullopt;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view item = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    const std::size_t eq = item.find('=');
    if (item.substr(0, eq) == name) {
      return eq == std::string_view::npos ? std::string()
                                          : PercentDecode(item.substr(eq + 1), true);
    }
  }
  return std::nullopt;
}

void Answer(Response& response, int status, std::string_view content_type, std::string body) {
  response.status = status;
  response.headers.push_back({"Content-Type", std::string(content_type)});
  response.headers.push_back({"Cache-Control", "no-cache"});
  response.body = std::move(body);
}

void AnswerJsonError(Response& response, int status, std::string_view message) {
  std::string body = "{\"error\":";
  AppendJsonString(body, message);
  body += "}\n";
  Answer(response, status, "application/json", std::move(body));
}

void MethodNotAllowed(Response& response, std::string_view allow) {
  Answer(response, 405, "text/plain; charset=utf-8", "method not allowed\n");
  response.headers.push_back({"Allow", std::string(allow)});
}

// Prometheus label values escape \, " and newline (exposition format 0.0.4).
std::string Label(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}

// A PartitionKey for a text report: quoted, non-printable bytes as \xNN.
std::string Printable(std::string_view key) {
  std::string out = "'";
  for (unsigned char c : key) {
    if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out + "'";
}

void RenderMetrics(TrafficControl& traffic, Response& response) {
  const Throttle& throttle = traffic.throttle();
  std::string out;
  out.reserve(16 * 1024);
  traffic.metrics().Render(out);
  out += fmt::format(
      "# HELP malachite_throttling_enabled 1 when requests over the targets get 503 ServerBusy.\n"
      "# TYPE malachite_throttling_enabled gauge\n"
      "malachite_throttling_enabled {}\n"
      "# HELP malachite_partition_target_entities_per_second The per-partition target.\n"
      "# TYPE malachite_partition_target_entities_per_second gauge\n"
      "malachite_partition_target_entities_per_second {}\n"
      "# HELP malachite_account_target_entities_per_second The default per-account target.\n"
      "# TYPE malachite_account_target_entities_per_second gauge\n"
      "malachite_account_target_entities_per_second {}\n"
      "# HELP malachite_tracked_partitions Partitions whose rate is kept.\n"
      "# TYPE malachite_tracked_partitions gauge\n"
      "malachite_tracked_partitions {}\n"
      "# HELP malachite_rebalances_total Partitions taken offline by the rebalancing emulation.\n"
      "# TYPE malachite_rebalances_total counter\n"
      "malachite_rebalances_total {}\n",
      throttle.enabled() ? 1 : 0, throttle.config().partition_rate, throttle.config().account_rate,
      throttle.tracked_partitions(), throttle.rebalances());
  out +=
      "# HELP malachite_hot_partition_entities_per_second Entities/s over the last second of the "
      "10 hottest partitions.\n"
      "# TYPE malachite_hot_partition_entities_per_second gauge\n";
  std::string throttled =
      "# HELP malachite_hot_partition_throttled_requests Requests refused so far, for the same "
      "partitions.\n"
      "# TYPE malachite_hot_partition_throttled_requests gauge\n";
  for (const PartitionReport& p : traffic.throttle().Hottest(10)) {
    const std::string labels =
        fmt::format("account=\"{}\",table=\"{}\",partition=\"{}\"", Label(p.account),
                    Label(p.table), Label(p.partition_key));
    out +=
        fmt::format("malachite_hot_partition_entities_per_second{{{}}} {:.1f}\n", labels, p.rate);
    throttled +=
        fmt::format("malachite_hot_partition_throttled_requests{{{}}} {}\n", labels, p.throttled);
  }
  out += throttled;
  Answer(response, 200, "text/plain; version=0.0.4; charset=utf-8", std::move(out));
}

std::string PartitionsText(const Throttle& throttle, const std::vector<PartitionReport>& hot) {
  const std::uint64_t target = throttle.config().partition_rate;
  std::string out = fmt::format(
      "Hot partitions: entities/s over the last second vs the target of {}/s per partition "
      "(throttling {}).\n\n",
      target, throttle.enabled() ? "on" : "off: nothing is refused, rates are still measured");
  out +=
      fmt::format("{:<20} {:<20} {:<24} {:>9} {:>8} {:>9} {:>10} {:>9}  {}\n", "account", "table",
                  "partition", "rate/s", "target%", "peak/s", "entities", "throttled", "state");
  for (const PartitionReport& p : hot) {
    const double percent = 100.0 * p.rate / static_cast<double>(target);
    const char* state = p.offline                              ? "OFFLINE (rebalancing)"
                        : p.rate > static_cast<double>(target) ? "OVER TARGET"
                        : p.peak > target || p.throttled > 0   ? "hot (throttled before)"
                        : percent >= 80.0                      ? "near target"
                                                               : "ok";
    out += fmt::format("{:<20} {:<20} {:<24} {:>9.1f} {:>7.0f}% {:>9} {:>10} {:>9}  {}\n",
                       p.account, p.table, Printable(p.partition_key), p.rate, percent, p.peak,
                       p.total, p.throttled, state);
  }
  if (hot.empty()) out += "(no partition has been used yet)\n";
  out += fmt::format(
      "\n{} partitions tracked. Partition stress test: load one partition at your expected peak "
      "and compare its rate with the target; a partition at or over 100% is throttled (503 "
      "ServerBusy) by the real service too. Spread the load over more PartitionKeys.\n",
      throttle.tracked_partitions());
  return out;
}

std::string PartitionsJson(const std::vector<PartitionReport>& hot, std::uint64_t target) {
  std::string out = "{\"target\":" + std::to_string(target) + ",\"partitions\":[";
  for (std::size_t i = 0; i < hot.size(); ++i) {
    const PartitionReport& p = hot[i];
    if (i > 0) out += ",";
    out += "{";
    JsonMembers members(out);
    members.String("account", p.account);
    members.String("table", p.table);
    members.String("partition", p.partition_key);
    members.Key("rate");
    out += fmt::format("{:.1f}", p.rate);
    for (auto [name, value] :
         {std::pair{"peak", p.peak}, {"total", p.total}, {"throttled", p.throttled}}) {
      members.Key(name);
      AppendJsonInt(out, static_cast<std::int64_t>(value));
    }
    members.Key("offline");
    out += p.offline ? "true" : "false";
    out += "}";
  }
  return out + "]}\n";
}

void RenderPartitions(TrafficControl& traffic, const Request& request, Response& response) {
  std::size_t top = kDefaultTop;
  if (auto text = QueryParam(request.target, "top")) {
    auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), top);
    if (ec != std::errc() || end != text->data() + text->size() || top == 0 || top > kMaxTop) {
      return AnswerJsonError(response, 400, "top must be an integer in 1..1000");
    }
  }
  const Throttle& throttle = traffic.throttle();
  const auto hot = throttle.Hottest(top);
  if (QueryParam(request.target, "format") == "json") {
    return Answer(response, 200, "application/json",
                  PartitionsJson(hot, throttle.config().partition_rate));
  }
  Answer(response, 200, "text/plain; charset=utf-8", PartitionsText(throttle, hot));
}

void HandleFaults(TrafficControl& traffic, const Request& request, std::string_view path,
                  Response& response) {
  FaultInjector& faults = traffic.faults();
  if (path.size() > kFaultsPrefix.size() && path.substr(0, kFaultsPrefix.size()) == kFaultsPrefix) {
    if (request.method != "DELETE") return MethodNotAllowed(response, "DELETE");
    const std::string_view text = path.substr(kFaultsPrefix.size());
    std::uint64_t id = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec != std::errc() || end != text.data() + text.size() || !faults.Remove(id)) {
      return AnswerJsonError(response, 404, "no fault rule " + std::string(text));
    }
    return Answer(response, 200, "application/json", faults.ListJson() + "\n");
  }
  if (request.method == "GET") {
    return Answer(response, 200, "application/json", faults.ListJson() + "\n");
  }
  if (request.method == "DELETE") {
    faults.Clear();
    return Answer(response, 200, "application/json", "[]\n");
  }
  if (request.method != "POST") return MethodNotAllowed(response, "GET, POST, DELETE");
  auto rules = FaultInjector::Parse(request.body);
  if (!rules) return AnswerJsonError(response, 400, rules.error().UserMessage());
  std::string body = "[";
  for (std::size_t i = 0; i < rules->size(); ++i) {
    if (i > 0) body += ",\n ";
    body += FaultRuleJson(faults.Add(std::move((*rules)[i])));
  }
  Answer(response, 201, "application/json", body + "]\n");
}

}  // namespace

bool IsTrafficPath(std::string_view path) {
  return path == "/-/metrics" || path == "/-/partitions" || path == "/-/faults" ||
         path.substr(0, kFaultsPrefix.size()) == kFaultsPrefix;
}

void HandleTrafficRequest(TrafficControl& traffic, const Request& request, Response& response) {
  const std::string_view path = PathOf(request.target);
  if (path == "/-/faults" || path.substr(0, kFaultsPrefix.size()) == kFaultsPrefix) {
    return HandleFaults(traffic, request, path, response);
  }
  if (request.method != "GET") return MethodNotAllowed(response, "GET");
  if (path == "/-/metrics") return RenderMetrics(traffic, response);
  RenderPartitions(traffic, request, response);
}

}  // namespace malachite::server
