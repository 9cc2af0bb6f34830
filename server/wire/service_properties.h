// Table service properties (spec §4.15, §11.2): the model, partial updates and the Get body.
// Parsing a Set body: service_properties_parse.h; the stored form: service_properties_record.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

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

// The Get Table Service Properties body, byte for byte in the service's form: a UTF-8 BOM, the
// XML declaration, the elements in the service's order, an empty `<Cors />`.
std::string RenderServicePropertiesXml(const ServiceProperties& properties);

}  // namespace malachite::server
