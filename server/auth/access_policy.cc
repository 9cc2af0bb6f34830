#include "server/auth/access_policy.h"

#include "common/datetime.h"

namespace malachite::server {

std::optional<DateTime> ParseSignedTime(std::string_view text) {
  // Date only: midnight UTC.
  if (text.size() == 10) {
    std::string full(text);
    full += "T00:00:00Z";
    return ParseIso8601(full);
  }
  // `YYYY-MM-DDThh:mm` + TZD (no seconds): the 17th character is the TZD, not ':'.
  if (text.size() >= 17 && text[10] == 'T' && text[13] == ':' && text[16] != ':') {
    std::string full(text.substr(0, 16));
    full += ":00";
    full += text.substr(16);
    return ParseIso8601(full);
  }
  return ParseIso8601(text);
}

}  // namespace malachite::server
