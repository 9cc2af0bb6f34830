// libFuzzer target for the XML bodies (spec §11.1–11.2): Set Table ACL and Set Table Service
// Properties. The first input byte picks the parser (even: ACL, odd: service properties), the
// rest is the body. Invariants: a failure is only the service's XML error codes; a success
// renders to XML that parses back to the same rendering (a fixed point), and the ACL holds at
// most 5 identifiers. Well-formedness: an accepted body followed by a second root element, and
// the rendering given a repeated attribute or a non-UTF-8 encoding declaration, are refused with
// InvalidXmlDocument.
//
// With clang: cmake -DCMAKE_CXX_COMPILER=clang++ -DMALACHITE_FUZZ=ON, then
//   build/tests/fuzz/xml_fuzz -max_total_time=60
// Without clang, tests/fuzz/xml_fuzz_driver_test.cc runs this entry point on random mutations of
// SDK-shaped seed bodies under the normal test build.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "server/auth/acl_xml.h"
#include "server/wire/service_properties.h"
#include "server/wire/service_properties_parse.h"
#include "server/wire/service_properties_record.h"
#include "server/wire/xml_util.h"

namespace {

using malachite::ErrorCode;

void CheckXmlError(ErrorCode code) {
  if (code != ErrorCode::kInvalidXmlDocument && code != ErrorCode::kInvalidXmlNodeValue) {
    std::abort();
  }
}

// `text` with the first `from` replaced by `to`; aborts when `from` is missing (the renderings
// always hold it).
std::string ReplaceFirst(std::string text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) std::abort();
  return text.replace(at, from.size(), to);
}

// Bodies that are certainly not well-formed XML, derived from an accepted `body` and its
// `rendered` form (which starts with the UTF-8 declaration and the root element `root`).
std::vector<std::string> NotWellFormed(std::string_view body, const std::string& rendered,
                                       std::string_view root) {
  std::vector<std::string> out;
  // A second root element, after the body and after its rendering.
  if (!malachite::server::IsBlank(body)) out.push_back(std::string(body) + "<x/>");
  out.push_back(rendered + "<" + std::string(root) + "/>");
  const std::string open = "<" + std::string(root);
  out.push_back(ReplaceFirst(rendered, open, open + R"( a="1" a="2")"));
  out.push_back(ReplaceFirst(rendered, R"(encoding="utf-8")", R"(encoding="ISO-8859-1")"));
  return out;
}

template <typename Parse>
void CheckRefused(const std::vector<std::string>& bodies, Parse parse) {
  for (const std::string& bad : bodies) {
    auto parsed = parse(bad);
    if (parsed || parsed.error().code != ErrorCode::kInvalidXmlDocument) std::abort();
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
  CheckRefused(NotWellFormed(body, rendered, "SignedIdentifiers"), ParseAclXml);
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
  if (!ParseServicePropertiesXml(rendered)) std::abort();
  CheckRefused(NotWellFormed(body, rendered, "StorageServiceProperties"),
               ParseServicePropertiesXml);
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
