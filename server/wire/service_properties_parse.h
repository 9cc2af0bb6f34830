// Parsing a Set Table Service Properties body (spec §11.2) with the service's validation.
#pragma once

#include <string_view>

#include "common/error.h"
#include "server/wire/service_properties.h"

namespace malachite::server {

// Azure: spec §11.2 — parses and validates a PUT body. Errors: kInvalidXmlDocument (malformed
// XML, unknown/repeated/missing elements, IncludeAPIs or Days present or absent against Enabled,
// more than 5 CORS rules, CORS over 2 KB), kInvalidXmlNodeValue (Version not 1.0, a boolean or
// number that is not one, Days outside 1..365, a bad origin/method/header list, a negative
// MaxAgeInSeconds).
Result<ServicePropertiesUpdate> ParseServicePropertiesXml(std::string_view body);

}  // namespace malachite::server
