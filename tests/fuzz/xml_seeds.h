// Seeds of xml_fuzz: the ACL and service-properties bodies the JS and Python SDKs send (first
// byte 'A' = ACL, 'S' = service properties; see xml_fuzz.cc).
#pragma once

#include <string>
#include <vector>

namespace malachite::fuzz {

inline std::vector<std::string> XmlSeeds() {
  const std::string decl = R"(<?xml version="1.0" encoding="utf-8"?>)";
  return {
      // ACL as the JS SDK serializes setAccessPolicy (whole seconds, Z).
      "A" + decl +
          "<SignedIdentifiers><SignedIdentifier><Id>readers</Id><AccessPolicy><Start>"
          "2020-01-01T00:00:00Z</Start><Expiry>2030-01-01T00:00:00Z</Expiry><Permission>raud"
          "</Permission></AccessPolicy></SignedIdentifier><SignedIdentifier><Id>w</Id>"
          "<AccessPolicy><Permission>a</Permission></AccessPolicy></SignedIdentifier>"
          "</SignedIdentifiers>",
      // Python: 7-digit fractions, no policy body, and the empty list.
      "A" + decl +
          "<SignedIdentifiers><SignedIdentifier><Id>p1</Id><AccessPolicy><Expiry>"
          "2030-01-01T00:00:00.0000000Z</Expiry><Permission>r</Permission></AccessPolicy>"
          "</SignedIdentifier><SignedIdentifier><Id>p2</Id></SignedIdentifier>"
          "</SignedIdentifiers>",
      "A" + decl + "<SignedIdentifiers />",
      "A",
      // Service properties: everything, then CORS only (what setProperties({cors}) sends).
      "S" + decl +
          "<StorageServiceProperties><Logging><Version>1.0</Version><Delete>true</Delete>"
          "<Read>false</Read><Write>true</Write><RetentionPolicy><Enabled>true</Enabled><Days>5"
          "</Days></RetentionPolicy></Logging><HourMetrics><Version>1.0</Version><Enabled>true"
          "</Enabled><IncludeAPIs>false</IncludeAPIs><RetentionPolicy><Enabled>false</Enabled>"
          "</RetentionPolicy></HourMetrics><MinuteMetrics><Version>1.0</Version><Enabled>false"
          "</Enabled><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></MinuteMetrics>"
          "<Cors><CorsRule><AllowedOrigins>http://a.example,http://b.example</AllowedOrigins>"
          "<AllowedMethods>GET,PUT,MERGE</AllowedMethods><AllowedHeaders>x-ms-meta-*,"
          "content-type</AllowedHeaders><ExposedHeaders>x-ms-meta-*</ExposedHeaders>"
          "<MaxAgeInSeconds>200</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>",
      "S" + decl +
          "<StorageServiceProperties><Cors><CorsRule><AllowedOrigins>*</AllowedOrigins>"
          "<AllowedMethods>GET</AllowedMethods><AllowedHeaders /><ExposedHeaders />"
          "<MaxAgeInSeconds>0</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>",
      "S" + decl + "<StorageServiceProperties><Cors /></StorageServiceProperties>",
  };
}

}  // namespace malachite::fuzz
