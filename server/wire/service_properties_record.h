// The stored form of an account's Table service properties (storage/FORMAT.md, "settings"): a
// version byte and the Get body's XML, read back with the Set body's parser.
#pragma once

#include <string>
#include <string_view>

#include "common/error.h"
#include "server/wire/service_properties.h"

namespace malachite::server {

// The stored record: version byte 01 + RenderServicePropertiesXml.
std::string EncodeServicePropertiesRecord(const ServiceProperties& properties);
// Errors: kInternalError for a record this build did not write.
Result<ServiceProperties> DecodeServicePropertiesRecord(std::string_view record);

}  // namespace malachite::server
