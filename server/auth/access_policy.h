// Stored access policies (spec §11.1) and the signed time forms SAS tokens and policies share.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/edm.h"

namespace malachite::server {

// One policy: every field optional (a SAS referencing it may supply the missing ones).
struct AccessPolicy {
  std::optional<DateTime> start;
  std::optional<DateTime> expiry;
  std::optional<std::string> permission;  // letters from "raud", as stored
};

// A named policy of a table ACL. Azure: spec §11.1 — Id up to 64 characters, unique per table.
struct SignedIdentifier {
  std::string id;
  AccessPolicy policy;
};

using SignedIdentifiers = std::vector<SignedIdentifier>;

// Azure: spec §11.1, §10.7 — the time forms of st/se and of ACL Start/Expiry: `YYYY-MM-DD`,
// `YYYY-MM-DDThh:mmTZD`, `YYYY-MM-DDThh:mm:ssTZD`, `YYYY-MM-DDThh:mm:ss.fffffffTZD` (TZD `Z` or
// `+hh:mm`/`-hh:mm`). nullopt when malformed or outside 0001..9999.
std::optional<DateTime> ParseSignedTime(std::string_view text);

}  // namespace malachite::server
