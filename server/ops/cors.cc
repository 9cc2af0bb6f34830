#include "server/ops/cors.h"

#include "common/encoding.h"
#include "server/ops/table_settings.h"

namespace malachite::server {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool HeaderAllowed(const CorsRule& rule, std::string_view header) {
  for (const std::string& allowed : rule.allowed_headers) {
    if (!allowed.empty() && allowed.back() == '*') {
      const std::string_view prefix(allowed.data(), allowed.size() - 1);
      if (header.size() >= prefix.size() && AsciiIEquals(header.substr(0, prefix.size()), prefix)) {
        return true;
      }
    } else if (AsciiIEquals(header, allowed)) {
      return true;
    }
  }
  return false;
}

bool IsWildcard(const CorsRule& rule) {
  return rule.allowed_origins.size() == 1 && rule.allowed_origins.front() == "*";
}

std::string Join(const std::vector<std::string>& entries) {
  std::string out;
  for (const std::string& entry : entries) {
    if (!out.empty()) out.push_back(',');
    out += entry;
  }
  return out;
}

}  // namespace

const CorsRule* FindCorsRule(const std::vector<CorsRule>& rules, std::string_view origin,
                             std::string_view method) {
  for (const CorsRule& rule : rules) {
    bool origin_ok = false;
    for (const std::string& allowed : rule.allowed_origins) {
      origin_ok = origin_ok || allowed == "*" || allowed == origin;
    }
    bool method_ok = false;
    for (const std::string& allowed : rule.allowed_methods)
      method_ok = method_ok || allowed == method;
    if (origin_ok && method_ok) return &rule;
  }
  return nullptr;
}

bool CorsHeadersAllowed(const CorsRule& rule, std::string_view requested) {
  while (!requested.empty()) {
    const std::size_t comma = requested.find(',');
    const std::string_view header = Trim(requested.substr(0, comma));
    if (!header.empty() && !HeaderAllowed(rule, header)) return false;
    if (comma == std::string_view::npos) break;
    requested.remove_prefix(comma + 1);
  }
  return true;
}

Result<void> AnswerPreflight(const std::vector<CorsRule>& rules, const Request& request,
                             Response& out) {
  const auto origin = request.Find("Origin");
  const auto method = request.Find("Access-Control-Request-Method");
  if (!origin || origin->empty() || !method || method->empty()) {
    return Fail(ErrorCode::kInvalidHeaderValue, "A required CORS header is not present.");
  }
  const std::string_view headers = request.Find("Access-Control-Request-Headers").value_or("");
  const CorsRule* rule = FindCorsRule(rules, *origin, *method);
  // Azure: spec §11.4 — only the first origin+method match is considered.
  if (rule == nullptr || !CorsHeadersAllowed(*rule, headers)) {
    return Fail(ErrorCode::kCorsPreflightFailure);
  }
  out.status = 200;
  out.body.clear();
  const bool wildcard = IsWildcard(*rule);
  out.Set("Access-Control-Allow-Origin", wildcard ? "*" : std::string(*origin));
  out.Set("Access-Control-Allow-Methods", std::string(*method));
  if (!Trim(headers).empty()) out.Set("Access-Control-Allow-Headers", std::string(headers));
  out.Set("Access-Control-Max-Age", std::to_string(rule->max_age_seconds));
  if (!wildcard) out.Set("Access-Control-Allow-Credentials", "true");
  return {};
}

void ApplyCorsRules(const std::vector<CorsRule>& rules, const Request& request, Response& out) {
  const auto origin = request.Find("Origin");
  if (!origin || rules.empty()) return;
  const bool get_or_head = request.method == "GET" || request.method == "HEAD";
  const CorsRule* rule = FindCorsRule(rules, *origin, request.method);
  if (rule == nullptr) {
    if (get_or_head) out.Set("Vary", "Origin");
    return;
  }
  const bool wildcard = IsWildcard(*rule);
  out.Set("Access-Control-Allow-Origin", wildcard ? "*" : std::string(*origin));
  if (!rule->exposed_headers.empty()) {
    out.Set("Access-Control-Expose-Headers", Join(rule->exposed_headers));
  }
  if (!wildcard) {
    out.Set("Access-Control-Allow-Credentials", "true");
    if (get_or_head) out.Set("Vary", "Origin");
  }
}

void AddCorsHeaders(const Request& request, std::string_view account, storage::Store& store,
                    Response& out) {
  // Emulator: spec §11.4, §15 #11 — the service may also send Vary: Origin on GETs without
  // Origin when rules exist; that would cost a properties read on every request, and responses
  // carry Cache-Control: no-cache anyway, so requests without Origin get no CORS headers.
  if (!request.Find("Origin")) return;
  // Read through the cache: a page's every request carries Origin, the rules seldom change.
  auto properties = CachedServiceProperties(store, account);
  if (!properties) return;
  ApplyCorsRules((*properties)->cors, request, out);
}

}  // namespace malachite::server
