// Small XML helpers for the XML-only operations (ACL, service properties, stats): parsing a body
// with pugixml into a document, reading child elements strictly, and writing escaped text.
#pragma once

#include <optional>
#include <pugixml.hpp>
#include <string>
#include <string_view>

#include "common/error.h"

namespace malachite::server {

// Azure: spec §4.13, §11.2 — the service's XML answers (Get Table ACL, Get Table Service
// Properties) start with a UTF-8 byte order mark; the SDKs' parsers skip it.
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Parses `body` into `doc`. Azure: spec §11 — XML that is not well-formed (XML 1.0: one root
// element, no repeated attribute, only XML characters, ...) is 400 InvalidXmlDocument, and so are
// a DOCTYPE and an encoding declaration other than the body's own encoding (UTF-8, or UTF-16 with
// a byte order mark).
Result<void> ParseXmlBody(std::string_view body, pugi::xml_document& doc);

// True when `body` is empty or only whitespace (an empty ACL body clears all policies).
bool IsBlank(std::string_view body);

// The text of element `node` (concatenated PCDATA/CDATA, no child elements allowed), or nullopt
// when it holds child elements.
std::optional<std::string> ElementText(const pugi::xml_node& node);

// Fails with kInvalidXmlDocument unless every child element of `node` is named in `allowed` and
// appears at most once.
Result<void> CheckChildren(const pugi::xml_node& node,
                           std::initializer_list<std::string_view> allowed);

// Appends `text` escaped for XML character data (and attribute values); invalid UTF-8 and the
// control characters XML 1.0 cannot carry become U+FFFD.
void AppendXmlText(std::string& out, std::string_view text);
// Appends <name>escaped text</name>.
void AppendXmlElement(std::string& out, std::string_view name, std::string_view text);

// `true`/`false` as the service accepts booleans in XML bodies; nullopt otherwise.
std::optional<bool> ParseXmlBool(std::string_view text);

tl::unexpected<Error> InvalidXml(std::string detail = {});
tl::unexpected<Error> InvalidXmlValue(std::string detail = {});

}  // namespace malachite::server
