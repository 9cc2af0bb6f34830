#include "server/auth/acl_xml.h"

#include <catch2/catch.hpp>

namespace malachite::server {
namespace {

// The rendering, or the error code.
std::string RoundTrip(std::string_view body) {
  auto acl = ParseAclXml(body);
  if (!acl) return std::string(acl.error().AzureCode());
  return RenderAclXml(*acl);
}

std::string Identifiers(int n) {
  std::string body = "<SignedIdentifiers>";
  for (int i = 0; i < n; ++i) {
    body += "<SignedIdentifier><Id>id" + std::to_string(i) + "</Id></SignedIdentifier>";
  }
  return body + "</SignedIdentifiers>";
}

}  // namespace

TEST_CASE("acl_xml: policies round-trip with dates in the 7-digit form", "[acl]") {
  CHECK(RoundTrip(R"(<?xml version="1.0" encoding="utf-8"?>
<SignedIdentifiers>
  <SignedIdentifier>
    <Id>readers-2024</Id>
    <AccessPolicy>
      <Start>2024-01-01</Start>
      <Expiry>2024-12-31T10:30+02:00</Expiry>
      <Permission>raud</Permission>
    </AccessPolicy>
  </SignedIdentifier>
  <SignedIdentifier><Id>a&amp;b</Id><AccessPolicy><Permission /></AccessPolicy></SignedIdentifier>
</SignedIdentifiers>)") ==
        R"(<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier>)"
        "<Id>readers-2024</Id><AccessPolicy><Start>2024-01-01T00:00:00.0000000Z</Start>"
        "<Expiry>2024-12-31T08:30:00.0000000Z</Expiry><Permission>raud</Permission>"
        "</AccessPolicy></SignedIdentifier><SignedIdentifier><Id>a&amp;b</Id>"
        "</SignedIdentifier></SignedIdentifiers>");
}

TEST_CASE("acl_xml: an identifier without a policy field is answered without <AccessPolicy>",
          "[acl]") {
  // The body the JS SDK's "should send a null ap" test sends, and the service's recorded answer.
  CHECK(RoundTrip(R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?><SignedIdentifiers>)"
                  "<SignedIdentifier><Id>null</Id><AccessPolicy/></SignedIdentifier>"
                  "<SignedIdentifier><Id>empty</Id><AccessPolicy/></SignedIdentifier>"
                  "<SignedIdentifier><Id>partial</Id><AccessPolicy><Permission>r</Permission>"
                  "</AccessPolicy></SignedIdentifier><SignedIdentifier><Id>full</Id><AccessPolicy>"
                  "<Start>2021-07-08T09:10:09Z</Start><Expiry>2021-07-08T09:10:09Z</Expiry>"
                  "<Permission>r</Permission></AccessPolicy></SignedIdentifier>"
                  "</SignedIdentifiers>") ==
        R"(<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers>)"
        "<SignedIdentifier><Id>null</Id></SignedIdentifier>"
        "<SignedIdentifier><Id>empty</Id></SignedIdentifier>"
        "<SignedIdentifier><Id>partial</Id><AccessPolicy><Permission>r</Permission>"
        "</AccessPolicy></SignedIdentifier><SignedIdentifier><Id>full</Id><AccessPolicy>"
        "<Start>2021-07-08T09:10:09.0000000Z</Start><Expiry>2021-07-08T09:10:09.0000000Z</Expiry>"
        "<Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>");
  // No <AccessPolicy> at all, and one with only empty fields, are the same: no policy.
  CHECK(RoundTrip("<SignedIdentifiers><SignedIdentifier><Id>x</Id></SignedIdentifier>"
                  "</SignedIdentifiers>") ==
        RoundTrip("<SignedIdentifiers><SignedIdentifier><Id>x</Id><AccessPolicy><Start/>"
                  "<Expiry></Expiry><Permission/></AccessPolicy></SignedIdentifier>"
                  "</SignedIdentifiers>"));
}

TEST_CASE("acl_xml: an empty body and an empty list clear the policies", "[acl]") {
  const std::string empty = R"(<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers />)";
  CHECK(RoundTrip("") == empty);
  CHECK(RoundTrip(" \r\n") == empty);
  CHECK(RoundTrip("<SignedIdentifiers></SignedIdentifiers>") == empty);
}

TEST_CASE("acl_xml: the service's limits are InvalidXmlDocument", "[acl]") {
  CHECK(RoundTrip(Identifiers(5)).find("<Id>id4</Id>") != std::string::npos);
  CHECK(RoundTrip(Identifiers(6)) == "InvalidXmlDocument");
  CHECK(RoundTrip("<SignedIdentifiers><SignedIdentifier><Id>" + std::string(65, 'x') +
                  "</Id></SignedIdentifier></SignedIdentifiers>") == "InvalidXmlDocument");
  CHECK(RoundTrip("<SignedIdentifiers><SignedIdentifier><Id>x</Id></SignedIdentifier>"
                  "<SignedIdentifier><Id>x</Id></SignedIdentifier></SignedIdentifiers>") ==
        "InvalidXmlDocument");
  CHECK(RoundTrip("<SignedIdentifiers><SignedIdentifier><Id>x</Id><AccessPolicy><Permission>"
                  "rw</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>") ==
        "InvalidXmlDocument");
  CHECK(RoundTrip("<SignedIdentifiers><SignedIdentifier><Id>x</Id><AccessPolicy><Expiry>"
                  "tomorrow</Expiry></AccessPolicy></SignedIdentifier></SignedIdentifiers>") ==
        "InvalidXmlDocument");
  CHECK(RoundTrip("<SignedIdentifiers><Other/></SignedIdentifiers>") == "InvalidXmlDocument");
  CHECK(RoundTrip("<SignedIdentifiers>") == "InvalidXmlDocument");
  CHECK(RoundTrip("<!DOCTYPE x [<!ENTITY e \"boom\">]><SignedIdentifiers/>") ==
        "InvalidXmlDocument");
}

TEST_CASE("acl_xml: the stored record decodes back to the same policies", "[acl]") {
  auto acl = ParseAclXml(Identifiers(3));
  REQUIRE(acl);
  auto decoded = DecodeAclRecord(EncodeAclRecord(*acl));
  REQUIRE(decoded);
  CHECK(RenderAclXml(*decoded) == RenderAclXml(*acl));
  CHECK_FALSE(DecodeAclRecord("\x02<SignedIdentifiers/>"));
}

}  // namespace malachite::server
