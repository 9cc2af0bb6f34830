#include "server/wire/xml_util.h"

#include <set>

#include "common/encoding.h"

namespace malachite::server {

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
  // A DOCTYPE is kept as a node so it can be refused below: pugixml never expands entities of a
  // DTD, but a DTD has no business in these bodies (the service's reader prohibits them).
  const unsigned options = pugi::parse_default | pugi::parse_doctype;
  const pugi::xml_parse_result parsed =
      doc.load_buffer(body.data(), body.size(), options, pugi::encoding_auto);
  if (!parsed) return InvalidXml(parsed.description());
  for (const pugi::xml_node& child : doc.children()) {
    if (child.type() == pugi::node_doctype) return InvalidXml("DOCTYPE is not allowed");
  }
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
