#include "server/auth/acl_xml.h"

#include <set>

#include "common/datetime.h"
#include "common/encoding.h"
#include "server/wire/xml_util.h"

namespace malachite::server {
namespace {

constexpr char kAclRecordVersion = '\x01';

bool HasControlCharacter(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20) return true;
  }
  return false;
}

// Azure: spec §11.1 — permission letters from "raud" (any order accepted, each once).
bool ValidPermission(std::string_view text) {
  std::set<char> seen;
  for (char c : text) {
    if (std::string_view("raud").find(c) == std::string_view::npos) return false;
    if (!seen.insert(c).second) return false;
  }
  return true;
}

Result<AccessPolicy> ParsePolicy(const pugi::xml_node& node) {
  AccessPolicy policy;
  if (!node) return policy;
  if (auto ok = CheckChildren(node, {"Start", "Expiry", "Permission"}); !ok) {
    return tl::unexpected(ok.error());
  }
  for (const pugi::xml_node& child : node.children()) {
    if (child.type() != pugi::node_element) continue;
    auto text = ElementText(child);
    if (!text) return InvalidXml("unexpected element inside " + std::string(child.name()));
    if (text->empty()) continue;  // an empty element is an absent field
    const std::string_view name = child.name();
    if (name == "Permission") {
      if (!ValidPermission(*text)) return InvalidXml("permission '" + *text + "'");
      policy.permission = std::move(*text);
      continue;
    }
    auto time = ParseSignedTime(*text);
    if (!time) return InvalidXml(std::string(name) + " '" + *text + "'");
    (name == "Start" ? policy.start : policy.expiry) = *time;
  }
  return policy;
}

Result<SignedIdentifier> ParseIdentifier(const pugi::xml_node& node) {
  if (auto ok = CheckChildren(node, {"Id", "AccessPolicy"}); !ok) return tl::unexpected(ok.error());
  auto id = ElementText(node.child("Id"));
  if (!node.child("Id") || !id || id->empty() || id->size() > kMaxSignedIdentifierLength ||
      !IsValidUtf8(*id) || HasControlCharacter(*id)) {
    return InvalidXml("signed identifier Id missing, empty, too long or not text");
  }
  auto policy = ParsePolicy(node.child("AccessPolicy"));
  if (!policy) return tl::unexpected(policy.error());
  return SignedIdentifier{std::move(*id), std::move(*policy)};
}

}  // namespace

Result<SignedIdentifiers> ParseAclXml(std::string_view body) {
  SignedIdentifiers out;
  if (IsBlank(body)) return out;
  pugi::xml_document doc;
  if (auto ok = ParseXmlBody(body, doc); !ok) return tl::unexpected(ok.error());
  const pugi::xml_node root = doc.document_element();
  if (std::string_view(root.name()) != "SignedIdentifiers") return InvalidXml("root element");
  std::set<std::string> ids;
  for (const pugi::xml_node& child : root.children()) {
    if (child.type() == pugi::node_pcdata && !IsBlank(child.value())) return InvalidXml("text");
    if (child.type() != pugi::node_element) continue;
    if (std::string_view(child.name()) != "SignedIdentifier") return InvalidXml("element");
    // Azure: spec §4.14 — more than 5 identifiers is InvalidXmlDocument (the Python SDK turns
    // exactly that into its "too many access policies" error).
    if (out.size() == kMaxSignedIdentifiers) return InvalidXml("more than 5 signed identifiers");
    auto identifier = ParseIdentifier(child);
    if (!identifier) return tl::unexpected(identifier.error());
    if (!ids.insert(identifier->id).second) return InvalidXml("duplicate signed identifier");
    out.push_back(std::move(*identifier));
  }
  return out;
}

std::string RenderAclXml(const SignedIdentifiers& identifiers) {
  std::string out = R"(<?xml version="1.0" encoding="utf-8"?>)";
  if (identifiers.empty()) return out + "<SignedIdentifiers />";
  out += "<SignedIdentifiers>";
  for (const SignedIdentifier& identifier : identifiers) {
    out += "<SignedIdentifier>";
    AppendXmlElement(out, "Id", identifier.id);
    const AccessPolicy& policy = identifier.policy;
    // Azure: spec §11.1 — an identifier without start, expiry and permission is answered without
    // <AccessPolicy> (the SDKs then report "no policy", not a policy of empty fields).
    if (policy.start || policy.expiry || policy.permission) {
      out += "<AccessPolicy>";
      if (policy.start) AppendXmlElement(out, "Start", FormatIso8601Fixed7(*policy.start));
      if (policy.expiry) AppendXmlElement(out, "Expiry", FormatIso8601Fixed7(*policy.expiry));
      if (policy.permission) AppendXmlElement(out, "Permission", *policy.permission);
      out += "</AccessPolicy>";
    }
    out += "</SignedIdentifier>";
  }
  out += "</SignedIdentifiers>";
  return out;
}

std::string EncodeAclRecord(const SignedIdentifiers& identifiers) {
  return std::string(1, kAclRecordVersion) + RenderAclXml(identifiers);
}

Result<SignedIdentifiers> DecodeAclRecord(std::string_view record) {
  if (record.empty() || record.front() != kAclRecordVersion) {
    return Fail(ErrorCode::kInternalError, "unknown table ACL record version");
  }
  auto parsed = ParseAclXml(record.substr(1));
  if (!parsed) return Fail(ErrorCode::kInternalError, "malformed table ACL record");
  return parsed;
}

}  // namespace malachite::server
