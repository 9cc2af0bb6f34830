#include "server/insight/insight_endpoints.h"

#include <fmt/format.h>

#include <charconv>

#include "common/datetime.h"
#include "server/traffic/endpoint_answer.h"
#include "server/wire/json_writer.h"

namespace malachite::server {
namespace {

constexpr auto kBillCapacityAge = std::chrono::seconds(10);
constexpr auto kBillCapacityBudget = std::chrono::milliseconds(2000);
constexpr auto kMetricsCapacityAge = std::chrono::seconds(60);
constexpr auto kMetricsCapacityBudget = std::chrono::milliseconds(250);
constexpr auto kCapacityBudget = std::chrono::milliseconds(5000);
constexpr std::string_view kJson = "application/json";

std::optional<std::uint64_t> Number(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size()) return std::nullopt;
  return value;
}

void HandleAdvisor(Insight& insight, const Request& request, Response& response) {
  if (request.method == "DELETE") {
    insight.ResetAdvisor();
    return Answer(response, 200, kJson, insight.AdvisorJson());
  }
  if (request.method != "GET") return MethodNotAllowed(response, "GET, DELETE");
  const auto severity = QueryParam(request.target, "severity");
  const auto category = QueryParam(request.target, "category");
  if (!severity && !category) return Answer(response, 200, kJson, insight.AdvisorJson());
  if (severity && *severity != "warning" && *severity != "info") {
    return AnswerJsonError(response, 400, "severity must be warning or info");
  }
  if (category && *category != CategoryName(Category::kDesign) &&
      *category != CategoryName(Category::kDiffersFromAzurite)) {
    return AnswerJsonError(response, 400, "category must be design or differs-from-azurite");
  }
  std::vector<Finding> findings = insight.Findings();
  std::erase_if(findings, [&](const Finding& f) {
    return (severity && (f.severity == Severity::kWarning) != (*severity == "warning")) ||
           (category && CategoryName(f.category) != *category);
  });
  Answer(response, 200, kJson, FindingsJson(findings, AdvisorInput{}));
}

void HandleBill(Insight& insight, const Request& request, Response& response) {
  if (request.method == "DELETE") insight.ResetBill();
  if (request.method != "GET" && request.method != "DELETE") {
    return MethodNotAllowed(response, "GET, DELETE");
  }
  Answer(response, 200, kJson, insight.BillJson(kBillCapacityAge, kBillCapacityBudget));
}

void HandlePrices(Insight& insight, const Request& request, Response& response) {
  if (request.method == "PUT") {
    auto prices = ParsePrices(request.body, insight.prices());
    if (!prices) return AnswerJsonError(response, 400, prices.error().UserMessage());
    insight.SetPrices(std::move(*prices));
  } else if (request.method != "GET") {
    return MethodNotAllowed(response, "GET, PUT");
  }
  Answer(response, 200, kJson, PricesJson(insight.prices()) + "\n");
}

void HandleCapacity(Insight& insight, const Request& request, Response& response) {
  if (request.method != "GET") return MethodNotAllowed(response, "GET");
  const auto account = QueryParam(request.target, "account");
  if (!account) return AnswerJsonError(response, 400, "account is required");
  if (!insight.HasAccount(*account)) {
    return AnswerJsonError(response, 404, "no account " + *account);
  }
  const auto table = QueryParam(request.target, "table");
  const auto max_age_text = QueryParam(request.target, "max_age");
  const auto max_age = Number(max_age_text);
  if (max_age_text && !max_age) return AnswerJsonError(response, 400, "max_age must be seconds");
  auto report =
      insight.Capacity(*account, table ? std::optional<std::string_view>(*table) : std::nullopt,
                       std::chrono::seconds(max_age.value_or(0)), kCapacityBudget);
  if (!report) {
    const bool absent = report.error().code == ErrorCode::kTableNotFound;
    return AnswerJsonError(
        response, absent ? 404 : 500,
        absent ? "no table " + table.value_or("") : report.error().UserMessage());
  }
  Answer(response, 200, kJson, CapacityJson(*report) + "\n");
}

void HandleTraffic(Insight& insight, const Request& request, Response& response) {
  if (request.method != "GET") return MethodNotAllowed(response, "GET");
  const auto since_text = QueryParam(request.target, "since");
  const auto since = Number(since_text);
  if (since_text && !since) return AnswerJsonError(response, 400, "since must be milliseconds");
  const DateTime after{
      since ? kUnixEpochTicks + static_cast<std::int64_t>(*since) * (kTicksPerSecond / 1000) : 0};
  Answer(response, 200, kJson, insight.TrafficJson(after));
}

}  // namespace

bool IsInsightPath(std::string_view path) {
  return path == "/-/advisor" || path == "/-/bill" || path == "/-/bill/prices" ||
         path == "/-/capacity" || path == "/-/traffic";
}

void HandleInsightRequest(Insight& insight, const Request& request, Response& response) {
  const std::string_view path = PathOf(request.target);
  if (path == "/-/advisor") return HandleAdvisor(insight, request, response);
  if (path == "/-/bill") return HandleBill(insight, request, response);
  if (path == "/-/bill/prices") return HandlePrices(insight, request, response);
  if (path == "/-/capacity") return HandleCapacity(insight, request, response);
  HandleTraffic(insight, request, response);
}

void AppendInsightMetrics(Insight& insight, std::string& out) {
  insight.AppendBillMetrics(out, kMetricsCapacityAge, kMetricsCapacityBudget);
}

}  // namespace malachite::server
