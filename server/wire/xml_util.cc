#include "server/wire/xml_util.h"

#include <expat.h>

#include <limits>
#include <memory>
#include <set>

#include "common/encoding.h"

namespace malachite::server {
namespace {

// What the well-formedness pass found beyond expat's own errors.
struct WellFormedCheck {
  XML_Parser parser = nullptr;
  const char* body_encoding = "UTF-8";  // what the bytes are: UTF-8, or UTF-16 by its BOM
  std::string problem;
};

void Refuse(WellFormedCheck& check, std::string problem) {
  check.problem = std::move(problem);
  XML_StopParser(check.parser, XML_FALSE);
}

// Azure: spec §11 — a declaration naming another encoding than the body's own (ISO-8859-1 on
// UTF-8 bytes) is refused, not used to re-read the bytes.
void OnXmlDeclaration(void* data, const XML_Char*, const XML_Char* encoding, int) {
  auto& check = *static_cast<WellFormedCheck*>(data);
  if (encoding == nullptr || AsciiIEquals(encoding, check.body_encoding)) return;
  Refuse(check, std::string("encoding declaration '") + encoding + "' on a " + check.body_encoding +
                    " body");
}

// A DTD has no business in these bodies (the service's reader prohibits them); stopping here
// also means no entity of one is ever declared or expanded.
void OnDoctype(void* data, const XML_Char*, const XML_Char*, const XML_Char*, int) {
  Refuse(*static_cast<WellFormedCheck*>(data), "DOCTYPE is not allowed");
}

// UTF-16 by a byte order mark, or by a NUL in the first two bytes (XML 1.0 appendix F).
bool LooksUtf16(std::string_view body) {
  if (body.size() < 2) return false;
  const auto b0 = static_cast<unsigned char>(body[0]);
  const auto b1 = static_cast<unsigned char>(body[1]);
  return (b0 == 0xFE && b1 == 0xFF) || (b0 == 0xFF && b1 == 0xFE) || b0 == 0 || b1 == 0;
}

// Azure: spec §11 — the service reads these bodies with a conforming XML 1.0 parser, so
// anything not well-formed is InvalidXmlDocument. pugixml builds the tree but is lenient (a second
// root element, a repeated attribute, a bare '&' or '<' in an attribute pass), so expat, a
// conforming non-validating parser, checks the document first.
Result<void> CheckWellFormed(std::string_view body) {
  if (body.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    return InvalidXml("body too large");
  }
  std::unique_ptr<std::remove_pointer_t<XML_Parser>, decltype(&XML_ParserFree)> parser(
      XML_ParserCreate(nullptr), &XML_ParserFree);
  if (!parser) return Fail(ErrorCode::kInternalError, {}, "expat: no parser");
  WellFormedCheck check{parser.get(), LooksUtf16(body) ? "UTF-16" : "UTF-8", {}};
  XML_SetUserData(check.parser, &check);
  XML_SetXmlDeclHandler(check.parser, OnXmlDeclaration);
  XML_SetStartDoctypeDeclHandler(check.parser, OnDoctype);
  if (XML_Parse(check.parser, body.data(), static_cast<int>(body.size()), XML_TRUE) ==
      XML_STATUS_OK) {
    return {};
  }
  if (!check.problem.empty()) return InvalidXml(std::move(check.problem));
  return InvalidXml(std::string(XML_ErrorString(XML_GetErrorCode(check.parser))) + " at line " +
                    std::to_string(XML_GetCurrentLineNumber(check.parser)) + ", column " +
                    std::to_string(XML_GetCurrentColumnNumber(check.parser)));
}

}  // namespace

tl::unexpected<Error> InvalidXml(std::string detail) {
  return Fail(ErrorCode::kInvalidXmlDocument, {}, std::move(detail));
}

tl::unexpected<Error> InvalidXmlValue(std::string detail) {
  return Fail(ErrorCode::kInvalidXmlNodeValue, {}, std::move(detail));
}

bool IsBlank(std::string_view body) {
  return body.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

Result<void> ParseXmlBody(std::string_view body, pugi::xml_document& doc) {
  if (auto ok = CheckWellFormed(body); !ok) return ok;
  const pugi::xml_parse_result parsed =
      doc.load_buffer(body.data(), body.size(), pugi::parse_default, pugi::encoding_auto);
  if (!parsed) return InvalidXml(parsed.description());
  if (!doc.document_element()) return InvalidXml("no root element");
  return {};
}

std::optional<std::string> ElementText(const pugi::xml_node& node) {
  std::string text;
  for (const pugi::xml_node& child : node.children()) {
    if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
      text += child.value();
    } else if (child.type() == pugi::node_element) {
      return std::nullopt;
    }
  }
  return text;
}

Result<void> CheckChildren(const pugi::xml_node& node,
                           std::initializer_list<std::string_view> allowed) {
  std::set<std::string_view> seen;
  for (const pugi::xml_node& child : node.children()) {
    if (child.type() == pugi::node_pcdata) {
      if (!IsBlank(child.value()))
        return InvalidXml("unexpected text in " + std::string(node.name()));
      continue;
    }
    if (child.type() != pugi::node_element) continue;
    const std::string_view name = child.name();
    bool known = false;
    for (std::string_view a : allowed) known = known || a == name;
    if (!known) return InvalidXml("unexpected element " + std::string(name));
    if (!seen.insert(name).second) return InvalidXml("element " + std::string(name) + " repeated");
  }
  return {};
}

void AppendXmlText(std::string& out, std::string_view text) {
  // Azure: spec §8.1 — error messages may quote hostile input; invalid UTF-8 becomes U+FFFD so the
  // body stays parsable.
  for (char c : ToValidUtf8(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\t':
      case '\n':
      case '\r':
        out.push_back(c);
        break;
      default:
        // XML 1.0 has no way to write other control characters, not even as references.
        if (static_cast<unsigned char>(c) < 0x20) {
          out.append("\xEF\xBF\xBD");
        } else {
          out.push_back(c);
        }
    }
  }
}

void AppendXmlElement(std::string& out, std::string_view name, std::string_view text) {
  out.push_back('<');
  out.append(name);
  out.push_back('>');
  AppendXmlText(out, text);
  out += "</";
  out.append(name);
  out.push_back('>');
}

std::optional<bool> ParseXmlBool(std::string_view text) {
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  return std::nullopt;
}

}  // namespace malachite::server
