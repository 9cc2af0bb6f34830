// libFuzzer target for the XML bodies (spec §11.1–11.2): Set Table ACL and Set Table Service
// Properties. The first input byte picks the parser (even: ACL, odd: service properties), the
// rest is the body. Invariants: a failure is only the service's XML error codes; a success
// renders to XML that parses back to the same rendering (a fixed point), and the ACL holds at
// most 5 identifiers.
//
// With clang: cmake -DCMAKE_CXX_COMPILER=clang++ -DMALACHITE_FUZZ=ON, then
//   build/tests/fuzz/xml_fuzz -max_total_time=60
// Without clang, tests/fuzz/xml_fuzz_driver_test.cc runs this entry point on random mutations of
// SDK-shaped seed bodies under the normal test build.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "server/auth/acl_xml.h"
#include "server/wire/service_properties.h"
#include "server/wire/service_properties_parse.h"

namespace {

using malachite::ErrorCode;

void CheckXmlError(ErrorCode code) {
  if (code != ErrorCode::kInvalidXmlDocument && code != ErrorCode::kInvalidXmlNodeValue) {
    std::abort();
  }
}

void FuzzAcl(std::string_view body) {
  using namespace malachite::server;
  auto acl = ParseAclXml(body);
  if (!acl) return CheckXmlError(acl.error().code);
  if (acl->size() > kMaxSignedIdentifiers) std::abort();
  const std::string rendered = RenderAclXml(*acl);
  auto again = ParseAclXml(rendered);
  if (!again || RenderAclXml(*again) != rendered) std::abort();
  auto decoded = DecodeAclRecord(EncodeAclRecord(*acl));
  if (!decoded || RenderAclXml(*decoded) != rendered) std::abort();
}

void FuzzServiceProperties(std::string_view body) {
  using namespace malachite::server;
  auto update = ParseServicePropertiesXml(body);
  if (!update) return CheckXmlError(update.error().code);
  ServiceProperties properties = DefaultServiceProperties();
  update->ApplyTo(properties);
  const std::string rendered = RenderServicePropertiesXml(properties);
  auto decoded = DecodeServicePropertiesRecord(EncodeServicePropertiesRecord(properties));
  if (!decoded || RenderServicePropertiesXml(*decoded) != rendered) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] % 2 == 0) {
    FuzzAcl(body);
  } else {
    FuzzServiceProperties(body);
  }
  return 0;
}
