#include "server/wire/service_properties.h"

#include <catch2/catch.hpp>

#include "server/wire/service_properties_parse.h"
#include "server/wire/service_properties_record.h"

namespace malachite::server {
namespace {

// The error code of a PUT body, or "ok".
std::string Check(std::string_view inner) {
  auto update = ParseServicePropertiesXml("<StorageServiceProperties>" + std::string(inner) +
                                          "</StorageServiceProperties>");
  return update ? "ok" : std::string(update.error().AzureCode());
}

std::string Rule(std::string_view origins, std::string_view methods, std::string_view headers,
                 std::string_view exposed = "", std::string_view age = "10") {
  return "<Cors><CorsRule><AllowedOrigins>" + std::string(origins) +
         "</AllowedOrigins><AllowedMethods>" + std::string(methods) +
         "</AllowedMethods><AllowedHeaders>" + std::string(headers) +
         "</AllowedHeaders><ExposedHeaders>" + std::string(exposed) +
         "</ExposedHeaders><MaxAgeInSeconds>" + std::string(age) +
         "</MaxAgeInSeconds></CorsRule></Cors>";
}

const std::string kMetricsOff =
    "<Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled>"
    "</RetentionPolicy>";

}  // namespace

TEST_CASE("service_properties: analytics follow the Enabled/IncludeAPIs/Days rules",
          "[properties]") {
  CHECK(Check("<HourMetrics>" + kMetricsOff + "</HourMetrics>") == "ok");
  CHECK(Check("<HourMetrics><Version>1.0</Version><Enabled>true</Enabled><RetentionPolicy>"
              "<Enabled>false</Enabled></RetentionPolicy></HourMetrics>") ==
        "InvalidXmlDocument");  // IncludeAPIs required when enabled
  CHECK(Check("<MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled><IncludeAPIs>true"
              "</IncludeAPIs><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy>"
              "</MinuteMetrics>") == "InvalidXmlDocument");
  CHECK(Check("<HourMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>true"
              "</IncludeAPIs><RetentionPolicy><Enabled>true</Enabled><Days>366</Days>"
              "</RetentionPolicy></HourMetrics>") == "InvalidXmlNodeValue");
  CHECK(Check("<HourMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy>"
              "<Enabled>false</Enabled><Days>3</Days></RetentionPolicy></HourMetrics>") ==
        "InvalidXmlDocument");
  CHECK(Check("<HourMetrics><Version>2.0</Version><Enabled>false</Enabled><RetentionPolicy>"
              "<Enabled>false</Enabled></RetentionPolicy></HourMetrics>") == "InvalidXmlNodeValue");
  CHECK(Check("<Logging><Version>1.0</Version><Delete>yes</Delete><Read>false</Read><Write>"
              "false</Write><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy>"
              "</Logging>") == "InvalidXmlNodeValue");
  CHECK(Check("<Logging><Version>1.0</Version><Read>false</Read><Write>false</Write>"
              "<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging>") ==
        "InvalidXmlDocument");  // Delete missing
  CHECK(Check("<Unknown/>") == "InvalidXmlDocument");
}

TEST_CASE("service_properties: CORS rules are validated as the service does", "[properties]") {
  CHECK(Check(Rule("http://a.example, http://b.example", "GET,PUT,MERGE", "x-ms-meta-*,x-ms-*",
                   "x-ms-request-id", "200")) == "ok");
  CHECK(Check(Rule("*", "GET", "*")) == "ok");
  CHECK(Check(Rule("*,http://a.example", "GET", "")) == "InvalidXmlNodeValue");
  CHECK(Check(Rule("", "GET", "")) == "InvalidXmlNodeValue");
  CHECK(Check(Rule("http://a.example", "PATCH", "")) == "InvalidXmlNodeValue");
  CHECK(Check(Rule("http://a.example", "get", "")) == "InvalidXmlNodeValue");
  CHECK(Check(Rule("http://a.example", "GET", "x-*-y")) == "InvalidXmlNodeValue");
  CHECK(Check(Rule("http://a.example", "GET", "a*,b*,c*")) == "InvalidXmlNodeValue");
  CHECK(Check(Rule("http://a.example", "GET", "a,,b")) == "InvalidXmlNodeValue");
  CHECK(Check(Rule("http://a.example", "GET", "", "", "-1")) == "InvalidXmlNodeValue");
  CHECK(Check(Rule("http://a.example", "GET", "", "", "soon")) == "InvalidXmlNodeValue");
  CHECK(Check(Rule(std::string(300, 'o'), "GET", "")) == "InvalidXmlNodeValue");
  // Found by the xml fuzz target: a control character survived parsing but not the stored
  // record's round trip; it can never match a request header, so it is refused up front. XML
  // can carry only tab, CR, LF and DEL among them; the others make the body not XML at all.
  CHECK(Check(Rule("http://a\t.example", "GET", "")) == "InvalidXmlNodeValue");
  CHECK(Check(Rule("http://a.example", "GET", "x-ms-\x7f")) == "InvalidXmlNodeValue");
  CHECK(Check(Rule("http://a\x13.example", "GET", "")) == "InvalidXmlDocument");
  CHECK(Check(Rule("http://a&#x13;.example", "GET", "")) == "InvalidXmlDocument");
  CHECK(Check("<Cors><CorsRule><AllowedOrigins>*</AllowedOrigins></CorsRule></Cors>") ==
        "InvalidXmlDocument");
  std::string six = "<Cors>";
  for (int i = 0; i < 6; ++i) {
    const std::string one = Rule("http://a.example", "GET", "");
    six += one.substr(6, one.size() - 13);  // the <CorsRule> element alone
  }
  CHECK(Check(six + "</Cors>") == "InvalidXmlDocument");
  std::string big = "<Cors>";
  for (int i = 0; i < 3; ++i) {
    const std::string one =
        Rule(std::string(250, 'o') + "," + std::string(250, 'p') + "," + std::string(250, 'q'),
             "GET", "");
    big += one.substr(6, one.size() - 13);
  }
  CHECK(Check(big + "</Cors>") == "InvalidXmlDocument");  // over 2 KB of rule values
}

TEST_CASE("service_properties: a partial update keeps the other settings", "[properties]") {
  auto update = ParseServicePropertiesXml(
      "<StorageServiceProperties><MinuteMetrics><Version>1.0</Version><Enabled>true</Enabled>"
      "<IncludeAPIs>false</IncludeAPIs><RetentionPolicy><Enabled>true</Enabled><Days>2</Days>"
      "</RetentionPolicy></MinuteMetrics></StorageServiceProperties>");
  REQUIRE(update);
  ServiceProperties properties = DefaultServiceProperties();
  update->ApplyTo(properties);
  CHECK(RenderServicePropertiesXml(properties) ==
        "\xEF\xBB\xBF"
        R"(<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties><Logging>)"
        "<Version>1.0</Version><Read>false</Read><Write>false</Write><Delete>false</Delete>"
        "<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging><HourMetrics>"
        "<Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>true</IncludeAPIs>"
        "<RetentionPolicy><Enabled>true</Enabled><Days>7</Days></RetentionPolicy></HourMetrics>"
        "<MinuteMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>false"
        "</IncludeAPIs><RetentionPolicy><Enabled>true</Enabled><Days>2</Days></RetentionPolicy>"
        "</MinuteMetrics><Cors /></StorageServiceProperties>");
}

TEST_CASE("service_properties: the body is the service's, byte for byte", "[properties]") {
  // Azure: spec §11.2 — Get Table Service Properties as recorded from the service (the .NET SDK's
  // TableServiceClientLiveTests/Storage/GetPropertiesReturnsProperties.json), after a Set that
  // turned Logging's Read and Write on.
  ServiceProperties properties = DefaultServiceProperties();
  properties.logging.read = true;
  properties.logging.write = true;
  CHECK(RenderServicePropertiesXml(properties) ==
        "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?><StorageServiceProperties><Logging>"
        "<Version>1.0</Version><Read>true</Read><Write>true</Write><Delete>false</Delete>"
        "<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging><HourMetrics>"
        "<Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>true</IncludeAPIs>"
        "<RetentionPolicy><Enabled>true</Enabled><Days>7</Days></RetentionPolicy></HourMetrics>"
        "<MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy>"
        "<Enabled>false</Enabled></RetentionPolicy></MinuteMetrics><Cors "
        "/></StorageServiceProperties>");
  // The stored record holds the same text, BOM included, and reads back.
  auto decoded = DecodeServicePropertiesRecord(EncodeServicePropertiesRecord(properties));
  REQUIRE(decoded);
  CHECK(RenderServicePropertiesXml(*decoded) == RenderServicePropertiesXml(properties));
}

}  // namespace malachite::server
