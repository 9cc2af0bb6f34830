// Detector over the requests the service refuses and Azurite lets through (table_usage.h
// RefusalStats): values outside the service's ranges and limits (spec §9.2, §9.3), changesets
// over its limits (§7.1), and what a shared access signature does not allow (§10.7, §10.8).
// One finding per table and class, with the Azure error code and the first request as example.
#include <fmt/format.h>

#include "common/refusal.h"
#include "server/insight/advisor.h"

namespace malachite::server {
namespace {

// What the advisor says about one class.
struct RefusalText {
  std::string_view id;
  std::string_view title;
  std::string_view azurite;  // what Azurite does with the same request
  std::string_view fix;
  std::string_view guide;
};

// Azure: spec §9.3 (ranges and sizes), §9.2 (key characters), §7.1 (changesets), §10.7–10.8
// (SAS). What Azurite does: its table handlers and SAS authenticator as read for spec §9 and §10.
constexpr std::array<RefusalText, kRefusalClassCount> kTexts = {{
    {"datetime-out-of-range", "DateTime values outside 1601-01-01 .. 9999-12-31",
     "Azurite stores any date it can parse",
     "Store dates from 1601-01-01T00:00:00Z on (.NET's DateTime.MinValue, 0001-01-01, is "
     "refused). For \"no date\", leave the property out or use 1601-01-01T00:00:00Z.",
     guide::kDataModel},
    {"int32-out-of-range", "Int32 values outside -2,147,483,648 .. 2,147,483,647",
     "Azurite keeps any JavaScript number it is given as Int32",
     "Type larger integers Edm.Int64 (sent as a string of digits with \"@odata.type\": "
     "\"Edm.Int64\"), or Edm.Double when they need not be exact.",
     guide::kDataModel},
    {"int64-out-of-range", "Int64 values outside the 64-bit range",
     "Azurite does not check the range of an Int64 string",
     "Keep Int64 values within -9223372036854775808 .. 9223372036854775807; store larger numbers "
     "as strings.",
     guide::kDataModel},
    {"double-out-of-range", "Double values beyond the largest finite double",
     "Azurite does not check the range of a Double string",
     "Send finite values (or the strings NaN, Infinity and -Infinity with \"@odata.type\": "
     "\"Edm.Double\"); 1.797693134862316e309 overflows.",
     guide::kDataModel},
    {"property-value-too-large", "String or binary values over 64 KiB",
     "Azurite does not limit the size of one value",
     "Keep a value under 64 KiB: a string counts 2 bytes per UTF-16 unit (32K characters). Put "
     "larger values in Blob storage and store the blob's name (large entities pattern), or split "
     "them over several properties.",
     guide::kDataModel},
    {"entity-too-large", "Entities over 1 MiB as the service counts them",
     "Azurite only checks that the JSON body is under 1 MiB, while the service counts 2 bytes per "
     "character of every string and name",
     "Keep entities under 1 MiB (strings count twice their length): move large values to Blob "
     "storage or split the entity over several rows of one partition.",
     guide::kDataModel},
    {"too-many-properties", "Entities with more than 252 custom properties",
     "Azurite does not count properties",
     "Keep at most 252 custom properties (255 with PartitionKey, RowKey and Timestamp): split "
     "the entity (wide entities pattern) or serialize related values into one property.",
     guide::kDataModel},
    {"forbidden-key-character", "Keys with characters the service forbids",
     "Azurite answers InvalidInput for / \\ # ? and stores control characters",
     "Keep / \\ # ?, U+0000-U+001F and U+007F-U+009F out of PartitionKey and RowKey: encode "
     "them (e.g. base64url or percent-encoding) before they become keys.",
     guide::kDataModel},
    {"batch-too-many-operations", "Entity group transactions with more than 100 operations",
     "Azurite may run larger changesets",
     "Split the changeset into $batch requests of at most 100 operations (and 4 MiB); each is "
     "atomic on its own.",
     guide::kBatch},
    {"request-body-too-large", "Request bodies over 4 MiB",
     "Azurite's body limit is not the service's",
     "Keep a request (a $batch included) under 4 MiB: split the batch or move large values to "
     "Blob storage.",
     guide::kBatch},
    {"sas-permission-mismatch", "A shared access signature lacks a permission the request needs",
     "Azurite checks SAS permissions with its own table of operations, not the service's",
     "Issue the SAS with the missing permission letter (table SAS: r query, a add, u update, d "
     "delete; account SAS adds w, l, c), or send this request with another credential.",
     guide::kServiceSas},
    {"sas-resource-type-mismatch", "An account SAS lacks the resource type the request needs",
     "Azurite's checks of an account SAS's resource types are not the service's",
     "Add the resource type to `srt`: s for service operations (properties), c for tables "
     "(create, delete, list), o for entities.",
     guide::kAccountSas},
    {"sas-key-range", "Requests outside a SAS's key range (spk/srk .. epk/erk)",
     "Azurite ignores a SAS's spk, srk, epk and erk",
     "Issue the token with a key range that covers the entities the client works on, or give "
     "that client a token of its own; a query with such a token only sees the range.",
     guide::kServiceSas},
}};

Finding RefusalFinding(const TableUsage& usage, RefusalClass cls, const RefusalStats& s) {
  const RefusalText& text = kTexts[static_cast<std::size_t>(cls)];
  const std::string_view code = Describe(s.code).code;
  const std::string_view specifics = RefusalOf(s.detail) == Refusal::kNone
                                         ? std::string_view(s.detail)
                                         : RefusalSpecifics(s.detail);
  Finding f;
  f.id = std::string(text.id);
  f.severity = Severity::kWarning;
  f.category = Category::kDiffersFromAzurite;
  f.pattern = "Differs from Azurite: refused by the service";
  f.account = usage.account;
  f.table = usage.table;
  f.title = std::string(text.title);
  f.evidence =
      fmt::format("{} {} answered {} {} (e.g. {} {}{}). {}; Azure refuses it with {}.", s.count,
                  s.count == 1 ? "request was" : "requests were", Describe(s.code).http_status,
                  code, OperationName(s.op), s.request,
                  specifics.empty() ? "" : fmt::format(": {}", specifics), text.azurite, code);
  f.facts = {TextFact("error_code", code), IntFact("requests", s.count),
             TextFact("operation", OperationName(s.op)), TextFact("example", s.request)};
  if (!specifics.empty()) f.facts.push_back(TextFact("detail", specifics));
  f.recommendation = std::string(text.fix);
  f.guide = std::string(text.guide);
  return f;
}

}  // namespace

void DetectRefusals(const AdvisorInput& input, std::vector<Finding>& out) {
  for (const TableUsage& usage : input.tables) {
    for (std::size_t i = 0; i < kRefusalClassCount; ++i) {
      const RefusalStats& s = usage.refusals[i];
      if (s.count > 0) out.push_back(RefusalFinding(usage, static_cast<RefusalClass>(i), s));
    }
  }
}

}  // namespace malachite::server
