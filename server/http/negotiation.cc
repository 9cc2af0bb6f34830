#include "server/http/negotiation.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "common/datetime.h"
#include "common/encoding.h"

namespace malachite::server {
namespace {

constexpr std::string_view kJsonVersion = "2013-08-15";
constexpr std::string_view kNoAtomVersion = "2015-12-11";
constexpr std::string_view kNewestKnownVersion = "2025-11-05";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool WellFormedDate(std::string_view v) {
  if (v.size() != 10 || v[4] != '-' || v[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!IsDigit(v[i])) return false;
  }
  int month = (v[5] - '0') * 10 + (v[6] - '0');
  int day = (v[8] - '0') * 10 + (v[9] - '0');
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

// `text` with all whitespace stripped and lower-cased (media types and parameters are
// case-insensitive): a view of `text` itself when it has neither, else of `storage`.
std::string_view Normalize(std::string_view text, std::string& storage) {
  const auto needs_change = [](char c) { return c == ' ' || c == '\t' || (c >= 'A' && c <= 'Z'); };
  if (std::none_of(text.begin(), text.end(), needs_change)) return text;
  storage.clear();
  storage.reserve(text.size());
  for (char c : text) {
    if (c == ' ' || c == '\t') continue;
    storage.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
  }
  return storage;
}

// The value of parameter `name` in "type;a=b;name=value", or empty.
std::string_view Parameter(std::string_view entry, std::string_view name) {
  std::size_t pos = 0;
  while ((pos = entry.find(';', pos)) != std::string_view::npos) {
    ++pos;
    std::string_view rest = entry.substr(pos);
    if (rest.size() > name.size() && rest.substr(0, name.size()) == name &&
        rest[name.size()] == '=') {
      std::string_view value = rest.substr(name.size() + 1);
      return value.substr(0, value.find(';'));
    }
  }
  return {};
}

// The header inputs of NegotiateMetadata; $format comes last, from the query.
constexpr std::array<std::string_view, 4> kInputHeaders = {
    "Content-Type", "Accept", "MaxDataServiceVersion", "DataServiceVersion"};

using FoundInputs = std::array<std::optional<std::string_view>, kInputHeaders.size() + 1>;

// The first value of each kInputHeaders name (as Request::Find reads it), in one pass over the
// headers: names are told apart by their length before they are compared.
void FindInputHeaders(const Request& request, FoundInputs& found) {
  for (const Header& header : request.headers) {
    for (std::size_t i = 0; i < kInputHeaders.size(); ++i) {
      if (header.name.size() == kInputHeaders[i].size() && !found[i] &&
          AsciiIEquals(header.name, kInputHeaders[i])) {
        found[i] = header.value;
        break;
      }
    }
  }
}

// Indexes of FoundInputs, in the order of kInputHeaders.
enum InputIndex : std::size_t {
  kContentType,
  kAccept,
  kMaxDataServiceVersion,
  kDataServiceVersion
};

// Azure: spec §13 — MaxDataServiceVersion wins over DataServiceVersion; absent means 3.0.
bool DataServiceVersionAllowsJson(const FoundInputs& found) {
  auto dsv = found[kMaxDataServiceVersion];
  if (!dsv) dsv = found[kDataServiceVersion];
  if (!dsv || dsv->empty()) return true;
  std::string_view v = *dsv;
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  return v.empty() || !IsDigit(v.front()) || v.front() >= '3' || (v.size() > 1 && IsDigit(v[1]));
}

// Azure: spec §2.3 — ACL, service properties and stats: XML bodies only.
bool IsXmlOnly(Operation op) { return TraitsOf(op).body == OperationBody::kXml; }

// Azure: spec §2.3 — XML operations on >= 2013-08-15 need an XML body and an Accept that
// includes XML (a missing Accept is fine).
Result<MetadataLevel> CheckXmlOperation(const Request& request, const FoundInputs& found,
                                        std::string_view version) {
  if (version < kJsonVersion) return MetadataLevel::kMinimal;
  std::string storage;
  auto content_type = found[kContentType];
  if (!request.body.empty() && content_type && !content_type->empty() &&
      Normalize(*content_type, storage).find("xml") == std::string_view::npos) {
    return Fail(ErrorCode::kMediaTypeNotSupported);
  }
  if (auto accept = found[kAccept]; accept && !accept->empty()) {
    const std::string_view list = Normalize(*accept, storage);
    if (list.find("xml") == std::string_view::npos && list.find("*/*") == std::string_view::npos &&
        list.find("application/*") == std::string_view::npos) {
      return Fail(ErrorCode::kMediaTypeNotSupported);
    }
  }
  return MetadataLevel::kMinimal;
}

}  // namespace

Result<std::string_view> NegotiateVersion(const Request& request, DateTime now) {
  auto header = request.Find("x-ms-version");
  if (!header) return kDefaultVersion;
  std::string_view version = *header;
  const bool known = WellFormedDate(version) && version >= kOldestVersion;
  // "Up to today", with one year of slack for clients newer than this build; versions up to the
  // newest one SDKs send today skip formatting the clock.
  if (!known || (version > kNewestKnownVersion &&
                 version > std::string_view(
                               FormatIso8601(DateTime{now.ticks + 366 * 86400 * kTicksPerSecond}))
                               .substr(0, 10))) {
    return Fail(ErrorCode::kInvalidHeaderValue, {},
                "x-ms-version '" + std::string(version) + "' is not a supported version");
  }
  return version;
}

Result<MetadataLevel> NegotiateMetadata(const Request& request, const Route& route,
                                        std::string_view version) {
  FoundInputs found;
  FindInputHeaders(request, found);  // one pass instead of a Request::Find per header
  if (IsXmlOnly(route.op)) return CheckXmlOperation(request, found, version);
  // Azure: spec §2.3 step 3 — the $batch envelope's Accept is irrelevant.
  if (route.op == Operation::kBatch || route.op == Operation::kPreflight) {
    return MetadataLevel::kMinimal;
  }
  const bool post_atom = version >= kNoAtomVersion;
  std::string storage;
  // Azure: spec §2.3 step 7 — an Atom request body.
  if (auto content_type = found[kContentType];
      post_atom && content_type &&
      Normalize(*content_type, storage).find("atom") != std::string_view::npos) {
    return Fail(ErrorCode::kAtomFormatNotSupported);
  }
  const std::string* format = route.query.Find("$format");
  std::string_view raw =
      format != nullptr ? std::string_view(*format) : found[kAccept].value_or(std::string_view{});
  const std::string_view list = Normalize(raw, storage);
  // Emulator: a missing Accept is taken as minimal metadata (the real service assumes Atom).
  std::optional<MetadataLevel> level;
  bool wildcard = list.empty();
  std::string_view rest = list;
  while (!rest.empty() && !level) {
    std::size_t comma = rest.find(',');
    std::string_view entry = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    std::string_view type = entry.substr(0, entry.find(';'));
    if (type == "application/json" || type == "json") {
      std::string_view odata = Parameter(entry, "odata");
      if (odata == "verbose") return Fail(ErrorCode::kJsonVerboseFormatNotSupported);
      if (odata == "nometadata")
        level = MetadataLevel::kNone;
      else if (odata == "fullmetadata")
        level = MetadataLevel::kFull;
      else
        level = MetadataLevel::kMinimal;
    } else if (type == "*/*" || type == "application/*") {
      wildcard = true;
    }
  }
  if (!level) {
    if (!wildcard) {
      // Emulator: Atom is not implemented at any version; refusing it is what >= 2015-12-11 does.
      return Fail(ErrorCode::kAtomFormatNotSupported);
    }
    level = MetadataLevel::kMinimal;
  }
  // Azure: spec §2.3 step 6.
  if (version < kJsonVersion || !DataServiceVersionAllowsJson(found)) {
    return Fail(ErrorCode::kJsonFormatNotSupported);
  }
  return *level;
}

Result<MetadataLevel> MetadataNegotiator::Negotiate(const Request& request, const Route& route) {
  // XML operations also read the body; $batch and preflight answer without reading anything.
  if (IsXmlOnly(route.op) || route.op == Operation::kBatch || route.op == Operation::kPreflight) {
    return NegotiateMetadata(request, route, version_);
  }
  static_assert(std::tuple_size_v<FoundInputs> == kInputs);
  FoundInputs found;
  FindInputHeaders(request, found);
  if (const std::string* format = route.query.Find("$format")) found[kInputs - 1] = *format;
  bool same = remembered_ && route.op == op_;
  for (std::size_t i = 0; same && i < kInputs; ++i) {
    same =
        found[i].has_value() == inputs_[i].present && (!found[i] || *found[i] == inputs_[i].value);
  }
  if (same) return level_;
  remembered_ = false;
  auto level = NegotiateMetadata(request, route, version_);
  if (!level) return level;
  for (std::size_t i = 0; i < kInputs; ++i) {
    inputs_[i].present = found[i].has_value();
    inputs_[i].value.assign(found[i].value_or(std::string_view{}));
  }
  op_ = route.op;
  level_ = *level;
  remembered_ = true;
  return level;
}

}  // namespace malachite::server
