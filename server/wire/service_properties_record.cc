#include "server/wire/service_properties_record.h"

#include "server/wire/service_properties_parse.h"

namespace malachite::server {
namespace {

constexpr char kPropertiesRecordVersion = '\x01';

}  // namespace

std::string EncodeServicePropertiesRecord(const ServiceProperties& properties) {
  return std::string(1, kPropertiesRecordVersion) + RenderServicePropertiesXml(properties);
}

Result<ServiceProperties> DecodeServicePropertiesRecord(std::string_view record) {
  if (record.empty() || record.front() != kPropertiesRecordVersion) {
    return Fail(ErrorCode::kInternalError, "unknown service properties record version");
  }
  auto update = ParseServicePropertiesXml(record.substr(1));
  if (!update) return Fail(ErrorCode::kInternalError, "malformed service properties record");
  ServiceProperties properties = DefaultServiceProperties();
  update->ApplyTo(properties);
  return properties;
}

}  // namespace malachite::server
