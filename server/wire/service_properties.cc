#include "server/wire/service_properties.h"

#include "server/wire/xml_util.h"

namespace malachite::server {
namespace {

std::string_view Bool(bool value) { return value ? "true" : "false"; }

void AppendRetention(std::string& out, const RetentionPolicy& policy) {
  out += "<RetentionPolicy>";
  AppendXmlElement(out, "Enabled", Bool(policy.enabled));
  if (policy.days) AppendXmlElement(out, "Days", std::to_string(*policy.days));
  out += "</RetentionPolicy>";
}

void AppendMetrics(std::string& out, std::string_view name, const MetricsSettings& metrics) {
  out += '<';
  out += name;
  out += '>';
  AppendXmlElement(out, "Version", metrics.version);
  AppendXmlElement(out, "Enabled", Bool(metrics.enabled));
  if (metrics.include_apis) AppendXmlElement(out, "IncludeAPIs", Bool(*metrics.include_apis));
  AppendRetention(out, metrics.retention);
  out += "</";
  out += name;
  out += '>';
}

std::string JoinList(const std::vector<std::string>& entries) {
  std::string out;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i > 0) out.push_back(',');
    out += entries[i];
  }
  return out;
}

void AppendCors(std::string& out, const std::vector<CorsRule>& rules) {
  if (rules.empty()) {
    out += "<Cors />";
    return;
  }
  out += "<Cors>";
  for (const CorsRule& rule : rules) {
    out += "<CorsRule>";
    AppendXmlElement(out, "AllowedOrigins", JoinList(rule.allowed_origins));
    AppendXmlElement(out, "AllowedMethods", JoinList(rule.allowed_methods));
    AppendXmlElement(out, "AllowedHeaders", JoinList(rule.allowed_headers));
    AppendXmlElement(out, "ExposedHeaders", JoinList(rule.exposed_headers));
    AppendXmlElement(out, "MaxAgeInSeconds", std::to_string(rule.max_age_seconds));
    out += "</CorsRule>";
  }
  out += "</Cors>";
}

}  // namespace

ServiceProperties DefaultServiceProperties() {
  ServiceProperties properties;
  properties.hour_metrics.enabled = true;
  properties.hour_metrics.include_apis = true;
  properties.hour_metrics.retention = RetentionPolicy{true, 7};
  return properties;
}

void ServicePropertiesUpdate::ApplyTo(ServiceProperties& properties) const {
  if (logging) properties.logging = *logging;
  if (hour_metrics) properties.hour_metrics = *hour_metrics;
  if (minute_metrics) properties.minute_metrics = *minute_metrics;
  if (cors) properties.cors = *cors;
}

std::string RenderServicePropertiesXml(const ServiceProperties& properties) {
  // Azure: spec §11.2 — the service's body starts with a UTF-8 byte order mark, and Logging lists
  // Read, Write, Delete (the SDKs send Delete, Read, Write; either order is read).
  std::string out(kUtf8Bom);
  out += R"(<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties>)";
  const LoggingSettings& logging = properties.logging;
  out += "<Logging>";
  AppendXmlElement(out, "Version", logging.version);
  AppendXmlElement(out, "Read", Bool(logging.read));
  AppendXmlElement(out, "Write", Bool(logging.write));
  AppendXmlElement(out, "Delete", Bool(logging.delete_));
  AppendRetention(out, logging.retention);
  out += "</Logging>";
  AppendMetrics(out, "HourMetrics", properties.hour_metrics);
  AppendMetrics(out, "MinuteMetrics", properties.minute_metrics);
  AppendCors(out, properties.cors);
  out += "</StorageServiceProperties>";
  return out;
}

}  // namespace malachite::server
