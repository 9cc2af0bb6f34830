// Parsing and validation of Set Table Service Properties bodies (spec §11.2). The service's
// analytics and CORS rules: Emulator code constants [NEPH AnalyticsSettingsHelper] and the CORS
// page [D:cors].
#include "server/wire/service_properties_parse.h"

#include <charconv>

#include "common/encoding.h"
#include "server/wire/xml_util.h"

namespace malachite::server {
namespace {

// Azure: spec §11.2 — CORS limits.
constexpr std::size_t kMaxCorsRules = 5;
constexpr std::size_t kMaxCorsEntries = 64;     // origins, literal headers
constexpr std::size_t kMaxPrefixedHeaders = 2;  // `x-ms-meta-*` style entries
constexpr std::size_t kMaxCorsEntryLength = 256;
constexpr std::size_t kMaxCorsTotalBytes = 2048;  // all rule values, tags excluded
constexpr std::string_view kCorsMethods[] = {"DELETE", "GET",     "HEAD", "MERGE",
                                             "POST",   "OPTIONS", "PUT"};

Result<std::string> RequiredText(const pugi::xml_node& parent, const char* name) {
  const pugi::xml_node node = parent.child(name);
  if (!node) return InvalidXml(std::string("missing element ") + name);
  auto text = ElementText(node);
  if (!text) return InvalidXml(std::string("element ") + name + " holds elements");
  return std::move(*text);
}

Result<bool> RequiredBool(const pugi::xml_node& parent, const char* name) {
  auto text = RequiredText(parent, name);
  if (!text) return tl::unexpected(text.error());
  auto value = ParseXmlBool(*text);
  if (!value) return InvalidXmlValue(std::string(name) + " is not a boolean");
  return *value;
}

Result<std::string> ParseVersion(const pugi::xml_node& parent) {
  // Emulator: an absent Version is taken as 1.0 (SDK models leave it optional).
  if (!parent.child("Version")) return std::string("1.0");
  auto text = RequiredText(parent, "Version");
  if (!text) return text;
  if (*text != "1.0") return InvalidXmlValue("Version must be 1.0");
  return text;
}

Result<RetentionPolicy> ParseRetention(const pugi::xml_node& parent) {
  const pugi::xml_node node = parent.child("RetentionPolicy");
  if (!node) return InvalidXml("missing element RetentionPolicy");
  if (auto ok = CheckChildren(node, {"Enabled", "Days"}); !ok) return tl::unexpected(ok.error());
  RetentionPolicy policy;
  auto enabled = RequiredBool(node, "Enabled");
  if (!enabled) return tl::unexpected(enabled.error());
  policy.enabled = *enabled;
  // Azure: spec §11.2 — Days (1..365) is present exactly when the policy is enabled.
  if (policy.enabled != static_cast<bool>(node.child("Days"))) {
    return InvalidXml("Days is only expected when RetentionPolicy is enabled");
  }
  if (!policy.enabled) return policy;
  auto text = RequiredText(node, "Days");
  if (!text) return tl::unexpected(text.error());
  int days = 0;
  const auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), days);
  if (ec != std::errc() || ptr != text->data() + text->size() || days < 1 || days > 365) {
    return InvalidXmlValue("Days must be an integer from 1 to 365");
  }
  policy.days = days;
  return policy;
}

Result<LoggingSettings> ParseLogging(const pugi::xml_node& node) {
  if (auto ok = CheckChildren(node, {"Version", "Delete", "Read", "Write", "RetentionPolicy"});
      !ok) {
    return tl::unexpected(ok.error());
  }
  LoggingSettings out;
  auto version = ParseVersion(node);
  if (!version) return tl::unexpected(version.error());
  out.version = std::move(*version);
  for (auto [field, name] : {std::pair{&out.delete_, "Delete"}, std::pair{&out.read, "Read"},
                             std::pair{&out.write, "Write"}}) {
    auto value = RequiredBool(node, name);
    if (!value) return tl::unexpected(value.error());
    *field = *value;
  }
  auto retention = ParseRetention(node);
  if (!retention) return tl::unexpected(retention.error());
  out.retention = *retention;
  return out;
}

Result<MetricsSettings> ParseMetrics(const pugi::xml_node& node) {
  if (auto ok = CheckChildren(node, {"Version", "Enabled", "IncludeAPIs", "RetentionPolicy"});
      !ok) {
    return tl::unexpected(ok.error());
  }
  MetricsSettings out;
  auto version = ParseVersion(node);
  if (!version) return tl::unexpected(version.error());
  out.version = std::move(*version);
  auto enabled = RequiredBool(node, "Enabled");
  if (!enabled) return tl::unexpected(enabled.error());
  out.enabled = *enabled;
  // Azure: spec §11.2 — "Element IncludeAPIs is only expected when Enabled is enabled."
  if (out.enabled != static_cast<bool>(node.child("IncludeAPIs"))) {
    return InvalidXml("Element IncludeAPIs is only expected when Enabled is enabled.");
  }
  if (out.enabled) {
    auto include = RequiredBool(node, "IncludeAPIs");
    if (!include) return tl::unexpected(include.error());
    out.include_apis = *include;
  }
  auto retention = ParseRetention(node);
  if (!retention) return tl::unexpected(retention.error());
  out.retention = *retention;
  return out;
}

bool HasControlCharacter(std::string_view text) {
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) return true;
  }
  return false;
}

// A comma list with entries trimmed of spaces. An empty text is the empty list; an empty entry
// ("a,,b") is kept so the caller refuses it.
std::vector<std::string> SplitList(std::string_view text) {
  std::vector<std::string> out;
  if (IsBlank(text)) return out;
  for (;;) {
    const std::size_t comma = text.find(',');
    std::string_view entry = text.substr(0, comma);
    while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
    while (!entry.empty() && entry.back() == ' ') entry.remove_suffix(1);
    out.emplace_back(entry);
    if (comma == std::string_view::npos) return out;
    text.remove_prefix(comma + 1);
  }
}

// Azure: spec §11.2 — origins: 1..64 entries of at most 256 characters, or the lone `*`.
Result<void> CheckOrigins(const std::vector<std::string>& origins) {
  if (origins.empty() || origins.size() > kMaxCorsEntries) return InvalidXmlValue("AllowedOrigins");
  for (const std::string& origin : origins) {
    if (origin.empty() || origin.size() > kMaxCorsEntryLength) return InvalidXmlValue("origin");
    if (origin == "*" && origins.size() > 1) return InvalidXmlValue("* mixed with origins");
  }
  return {};
}

Result<void> CheckMethods(const std::vector<std::string>& methods) {
  if (methods.empty()) return InvalidXmlValue("AllowedMethods is empty");
  for (const std::string& method : methods) {
    bool known = false;
    for (std::string_view m : kCorsMethods) known = known || m == method;
    if (!known) return InvalidXmlValue("method '" + method + "' is not allowed in CORS rules");
  }
  return {};
}

// Azure: spec §11.2 — up to 64 literal and 2 prefixed (`x-ms-meta-*`) headers, `*` only at the
// end, no empty entries; the lone `*` allows every header.
Result<void> CheckHeaders(const std::vector<std::string>& headers) {
  std::size_t literal = 0, prefixed = 0;
  for (const std::string& header : headers) {
    if (header.empty() || header.size() > kMaxCorsEntryLength) return InvalidXmlValue("header");
    const std::size_t star = header.find('*');
    if (star != std::string::npos && star + 1 != header.size()) return InvalidXmlValue("header *");
    ++(star == std::string::npos ? literal : prefixed);
  }
  if (literal > kMaxCorsEntries || prefixed > kMaxPrefixedHeaders) {
    return InvalidXmlValue("too many headers");
  }
  return {};
}

Result<CorsRule> ParseCorsRule(const pugi::xml_node& node, std::size_t& total_bytes) {
  if (auto ok = CheckChildren(node, {"AllowedOrigins", "AllowedMethods", "AllowedHeaders",
                                     "ExposedHeaders", "MaxAgeInSeconds"});
      !ok) {
    return tl::unexpected(ok.error());
  }
  std::string texts[5];
  const char* names[5] = {"AllowedOrigins", "AllowedMethods", "AllowedHeaders", "ExposedHeaders",
                          "MaxAgeInSeconds"};
  for (int i = 0; i < 5; ++i) {
    auto text = RequiredText(node, names[i]);  // Azure: spec §11.2 — all five are required
    if (!text) return tl::unexpected(text.error());
    // Origins, methods and headers are HTTP header material: control characters can never match
    // a request and could not be written back into a response header.
    if (!IsValidUtf8(*text) || HasControlCharacter(*text)) return InvalidXmlValue(names[i]);
    total_bytes += text->size();
    texts[i] = std::move(*text);
  }
  CorsRule rule{SplitList(texts[0]), SplitList(texts[1]), SplitList(texts[2]), SplitList(texts[3]),
                0};
  if (auto ok = CheckOrigins(rule.allowed_origins); !ok) return tl::unexpected(ok.error());
  if (auto ok = CheckMethods(rule.allowed_methods); !ok) return tl::unexpected(ok.error());
  if (auto ok = CheckHeaders(rule.allowed_headers); !ok) return tl::unexpected(ok.error());
  if (auto ok = CheckHeaders(rule.exposed_headers); !ok) return tl::unexpected(ok.error());
  const std::string& age = texts[4];
  const auto [ptr, ec] = std::from_chars(age.data(), age.data() + age.size(), rule.max_age_seconds);
  if (ec != std::errc() || ptr != age.data() + age.size() || age.empty() ||
      rule.max_age_seconds < 0 || rule.max_age_seconds > 0x7fffffff) {
    return InvalidXmlValue("MaxAgeInSeconds");
  }
  return rule;
}

Result<std::vector<CorsRule>> ParseCors(const pugi::xml_node& node) {
  std::vector<CorsRule> rules;
  std::size_t total_bytes = 0;
  for (const pugi::xml_node& child : node.children()) {
    if (child.type() == pugi::node_pcdata && !IsBlank(child.value())) return InvalidXml("text");
    if (child.type() != pugi::node_element) continue;
    if (std::string_view(child.name()) != "CorsRule") return InvalidXml("element in Cors");
    if (rules.size() == kMaxCorsRules)
      return InvalidXml("CORS rules can't exceed maximum of 5 rules");
    auto rule = ParseCorsRule(child, total_bytes);
    if (!rule) return tl::unexpected(rule.error());
    rules.push_back(std::move(*rule));
  }
  if (total_bytes > kMaxCorsTotalBytes) return InvalidXml("CORS rules exceed 2 KB");
  return rules;
}

}  // namespace

Result<ServicePropertiesUpdate> ParseServicePropertiesXml(std::string_view body) {
  pugi::xml_document doc;
  if (auto ok = ParseXmlBody(body, doc); !ok) return tl::unexpected(ok.error());
  const pugi::xml_node root = doc.document_element();
  if (std::string_view(root.name()) != "StorageServiceProperties") return InvalidXml("root");
  // DefaultServiceVersion belongs to Blob; the service ignores it for tables (rec.: accepted).
  if (auto ok = CheckChildren(
          root, {"Logging", "HourMetrics", "MinuteMetrics", "Cors", "DefaultServiceVersion"});
      !ok) {
    return tl::unexpected(ok.error());
  }
  ServicePropertiesUpdate update;
  if (const pugi::xml_node node = root.child("Logging")) {
    auto logging = ParseLogging(node);
    if (!logging) return tl::unexpected(logging.error());
    update.logging = std::move(*logging);
  }
  for (auto [field, name] : {std::pair{&update.hour_metrics, "HourMetrics"},
                             std::pair{&update.minute_metrics, "MinuteMetrics"}}) {
    if (const pugi::xml_node node = root.child(name)) {
      auto metrics = ParseMetrics(node);
      if (!metrics) return tl::unexpected(metrics.error());
      *field = std::move(*metrics);
    }
  }
  if (const pugi::xml_node node = root.child("Cors")) {
    auto cors = ParseCors(node);
    if (!cors) return tl::unexpected(cors.error());
    update.cors = std::move(*cors);
  }
  return update;
}

}  // namespace malachite::server
