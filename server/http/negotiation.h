// Content negotiation and version checks (spec §2.3, §13): which x-ms-version a request is
// processed at and which JSON metadata level its response uses.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "common/edm.h"
#include "common/error.h"
#include "server/http/message.h"
#include "server/http/metadata.h"
#include "server/http/route.h"

namespace malachite::server {

// Emulator: spec §13 — a request without x-ms-version is processed as 2019-02-02 (what every
// current SDK sends), not as the oldest version like the real service.
inline constexpr std::string_view kDefaultVersion = "2019-02-02";
inline constexpr std::string_view kOldestVersion = "2009-04-14";

// The version the request is processed at: its x-ms-version, or kDefaultVersion when absent.
// Any well-formed YYYY-MM-DD from kOldestVersion up to one year after `now` is accepted.
// Errors: kInvalidHeaderValue (malformed, too old, too new). The view lives as long as `request`.
Result<std::string_view> NegotiateVersion(const Request& request, DateTime now);

// The JSON metadata level of an OData operation's response: $format over Accept, whitespace
// stripped, first application/json entry wins (no odata= parameter: minimal), */* and a missing
// Accept mean minimal. Errors (all 415): kJsonVerboseFormatNotSupported (odata=verbose),
// kAtomFormatNotSupported (only Atom/XML or other non-JSON types acceptable, or an Atom request
// body, on version >= 2015-12-11), kJsonFormatNotSupported (JSON on version < 2013-08-15 or with
// MaxDataServiceVersion/DataServiceVersion < 3.0). For the XML-only operations (ACL, service
// properties/stats): kMediaTypeNotSupported when the body is not XML or Accept excludes XML;
// they and $batch/preflight otherwise return kMinimal.
Result<MetadataLevel> NegotiateMetadata(const Request& request, const Route& route,
                                        std::string_view version);

// NegotiateMetadata for a run of requests processed at one version (the operations of a $batch
// changeset), remembering the last success: a request of the same operation whose $format and
// first Accept, Content-Type, MaxDataServiceVersion and DataServiceVersion headers are
// byte-identical (present or absent alike) to the remembered one's gets the remembered level
// without negotiating again. Every result, error or level, is exactly what NegotiateMetadata
// returns for the request; errors are never remembered. REQUIRES: `version` outlives the
// negotiator.
class MetadataNegotiator {
 public:
  explicit MetadataNegotiator(std::string_view version) : version_(version) {}
  Result<MetadataLevel> Negotiate(const Request& request, const Route& route);

 private:
  // One input a JSON operation's negotiation reads: a header's first value, or $format.
  struct Input {
    bool present = false;
    std::string value;
  };
  static constexpr std::size_t kInputs = 5;

  std::string_view version_;
  bool remembered_ = false;
  Operation op_ = Operation::kQueryTables;
  std::array<Input, kInputs> inputs_;
  MetadataLevel level_ = MetadataLevel::kMinimal;
};

}  // namespace malachite::server
