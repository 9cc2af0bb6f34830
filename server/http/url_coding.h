// Percent-encoding of request targets and of the URLs the server writes (Location, odata.id), with
// Boost.URL (RFC 3986).
#pragma once

#include <string>
#include <string_view>

namespace malachite::server {

// `text` with every %XX escape decoded; with `plus_is_space` a '+' decodes to a space, as in any
// form-encoded query (what IIS's and Azurite's query parsers do; SDKs that mean '+' send %2B).
// Paths decode with it false: Azure clients never mean a space by '+' in a path.
// A '%' that starts no escape (%zz, a trailing %) stays a literal '%' while the valid escapes
// around it decode, as .NET's UrlDecode reads a query value; a path is checked with
// IsValidPercentEncoding first (spec §1.2).
std::string PercentDecode(std::string_view text, bool plus_is_space = false);
// The same into `out` (overwritten, keeping its capacity).
void PercentDecodeInto(std::string_view text, std::string& out, bool plus_is_space = false);

// True when every '%' in `text` starts an escape of two hex digits (RFC 3986 §2.1 pct-encoded).
bool IsValidPercentEncoding(std::string_view text);

// Percent-encodes every byte outside RFC 3986 unreserved (A-Z a-z 0-9 - . _ ~), hex in upper case.
std::string PercentEncode(std::string_view text);

// Appends PercentEncode(text) to `out`.
void AppendPercentEncoded(std::string& out, std::string_view text);

}  // namespace malachite::server
