#include "server/wire/xml_util.h"

#include <catch2/catch.hpp>

namespace malachite::server {
namespace {

// "ok <root name>" or the error code and its detail.
std::string Parse(std::string_view body) {
  pugi::xml_document doc;
  auto parsed = ParseXmlBody(body, doc);
  if (!parsed) {
    return std::string(parsed.error().AzureCode()) + ": " + parsed.error().detail;
  }
  return std::string("ok ") + doc.document_element().name();
}

bool Refused(std::string_view body) { return Parse(body).rfind("InvalidXmlDocument: ", 0) == 0; }

}  // namespace

TEST_CASE("xml_util: the three malformations clients sent are InvalidXmlDocument", "[xml]") {
  CHECK(Parse("<SignedIdentifiers/><SignedIdentifiers/>") ==
        "InvalidXmlDocument: junk after document element at line 1, column 20");
  CHECK(Parse(R"(<StorageServiceProperties a="1" a="2"/>)") ==
        "InvalidXmlDocument: duplicate attribute at line 1, column 32");
  CHECK(Parse("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>\xC3\xA9</a>") ==
        "InvalidXmlDocument: encoding declaration 'ISO-8859-1' on a UTF-8 body");
  CHECK(Parse("<?xml version=\"1.0\" encoding=\"utf-16\"?><a/>") ==
        "InvalidXmlDocument: encoding declaration 'utf-16' on a UTF-8 body");
}

TEST_CASE("xml_util: what XML 1.0 calls not well-formed is refused", "[xml]") {
  for (std::string_view body :
       {"<a>x & y</a>", "<a b='<'/>", "<a>&unknown;</a>", "<a><!-- x -- y --></a>", "<a/>junk",
        "<a>\x01</a>", "<a>&#0;</a>", "<a>&#xFFFF;</a>", "<a>\xFF</a>",
        "  <?xml version='1.0'?><a/>", "<?xml version='1.0'?><?xml version='1.0'?><a/>", "<a></b>",
        "<a>", "", "<?xml version='1.0'?>", "<a xmlns:p='u'><p:b p:c='1' p:c='2'/></a>",
        "<!DOCTYPE a><a/>", "<!DOCTYPE a [<!ENTITY e \"boom\">]><a>&e;</a>"}) {
    INFO(body);
    CHECK(Refused(body));
  }
  CHECK(Parse("<!DOCTYPE a><a/>") == "InvalidXmlDocument: DOCTYPE is not allowed");
}

TEST_CASE("xml_util: well-formed bodies in the encodings clients use parse", "[xml]") {
  CHECK(Parse("<a/>") == "ok a");
  CHECK(Parse("\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?><a>\xC3\xA9</a>") == "ok a");
  CHECK(Parse(R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?><a/>)") == "ok a");
  CHECK(Parse("<?xml version='1.0'?>\n<a>&amp;&lt;&#x41;<![CDATA[<&>]]></a><!-- after -->\n") ==
        "ok a");
  // UTF-16 with its byte order mark, declared as such or not at all.
  auto utf16 = [](std::string_view ascii) {
    std::string out = "\xFF\xFE";
    for (char c : ascii) out += std::string{c, '\0'};
    return out;
  };
  CHECK(Parse(utf16("<?xml version='1.0' encoding='utf-16'?><a/>")) == "ok a");
  CHECK(Parse(utf16("<a/>")) == "ok a");
  CHECK(Parse(utf16("<?xml version='1.0' encoding='utf-8'?><a/>")) ==
        "InvalidXmlDocument: encoding declaration 'utf-8' on a UTF-16 body");
}

}  // namespace malachite::server
