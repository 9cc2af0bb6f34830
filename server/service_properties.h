// Table service properties (spec §4.15, §11.2): the model, its XML in both directions with the
// service's validation, partial updates, and the stored form (storage/FORMAT.md, "settings").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace malachite::server {

struct RetentionPolicy {
  bool enabled = false;
  std::optional<int> days;  // 1..365, present iff enabled
};

struct LoggingSettings {
  std::string version = "1.0";
  bool delete_ = false;
  bool read = false;
  bool write = false;
  RetentionPolicy retention;
};

struct MetricsSettings {
  std::string version = "1.0";
  bool enabled = false;
  std::optional<bool> include_apis;  // present iff enabled
  RetentionPolicy retention;
};

// Azure: spec §11.2 — one CORS rule. The lists keep the client's order; origins are matched
// exactly (case-sensitive), methods exactly, headers case-insensitively with `prefix*` entries.
struct CorsRule {
  std::vector<std::string> allowed_origins;  // or the lone "*"
  std::vector<std::string> allowed_methods;
  std::vector<std::string> allowed_headers;
  std::vector<std::string> exposed_headers;
  long long max_age_seconds = 0;
};

struct ServiceProperties {
  LoggingSettings logging;
  MetricsSettings hour_metrics;
  MetricsSettings minute_metrics;
  std::vector<CorsRule> cors;
};

// Emulator: spec §11.2 (rec.) — what an account has before any Set: logging off, hour metrics
// on with APIs and 7 days retention, minute metrics off, no CORS rules.
ServiceProperties DefaultServiceProperties();

// A Set Table Service Properties body: elements absent from it leave the stored values alone.
struct ServicePropertiesUpdate {
  std::optional<LoggingSettings> logging;
  std::optional<MetricsSettings> hour_metrics;
  std::optional<MetricsSettings> minute_metrics;
  std::optional<std::vector<CorsRule>> cors;

  void ApplyTo(ServiceProperties& properties) const;
};

// Azure: spec §11.2 — parses and validates a PUT body. Errors: kInvalidXmlDocument (malformed
// XML, unknown/repeated/missing elements, IncludeAPIs or Days present or absent against Enabled,
// more than 5 CORS rules, CORS over 2 KB), kInvalidXmlNodeValue (Version not 1.0, a boolean or
// number that is not one, Days outside 1..365, a bad origin/method/header list, a negative
// MaxAgeInSeconds).
Result<ServicePropertiesUpdate> ParseServicePropertiesXml(std::string_view body);

// The Get Table Service Properties body (element order as the service returns it).
std::string RenderServicePropertiesXml(const ServiceProperties& properties);

// The stored record: version byte 01 + RenderServicePropertiesXml.
std::string EncodeServicePropertiesRecord(const ServiceProperties& properties);
// Errors: kInternalError for a record this build did not write.
Result<ServiceProperties> DecodeServicePropertiesRecord(std::string_view record);

}  // namespace malachite::server
