// Percent-encoding of request targets and of the URLs the server writes (Location, odata.id), with
// Boost.URL (RFC 3986).
#pragma once

#include <string>
#include <string_view>

namespace malachite::server {

// `text` with every %XX escape decoded; with `plus_is_space` a '+' decodes to a space, as in any
// form-encoded query (what IIS's and Azurite's query parsers do; SDKs that mean '+' send %2B).
// Paths decode with it false: Azure clients never mean a space by '+' in a path.
// Emulator: a text holding a malformed escape (%zz, a trailing %) is returned as it is,
// undecoded.
std::string PercentDecode(std::string_view text, bool plus_is_space = false);

// Percent-encodes every byte outside RFC 3986 unreserved (A-Z a-z 0-9 - . _ ~), hex in upper case.
std::string PercentEncode(std::string_view text);

}  // namespace malachite::server
