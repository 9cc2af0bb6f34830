// SharedKeyLite signing for the load tool: the scheme @azure/data-tables uses (spec §10.3-10.4).
#pragma once

#include <string>
#include <string_view>

namespace malachite::bench {

class SharedKeyLiteSigner {
 public:
  // `key_base64` is the account key as printed in connection strings. REQUIRES: valid base64.
  SharedKeyLiteSigner(std::string account, std::string_view key_base64);

  // The Authorization header value for a request to `path` (the URI path as sent, without the
  // query, e.g. "/devstoreaccount1/benchtable()") carrying `x-ms-date: <date>`.
  // Azure: string-to-sign = date + "\n" + "/" + account + path (spec §10.3, §10.4).
  std::string Authorization(std::string_view date, std::string_view path) const;

 private:
  std::string account_;
  std::string key_;  // decoded key bytes
};

// The current time in RFC 1123 form ("Sat, 21 Nov 2026 05:21:46 GMT"), formatted at most once per
// second (the result is cached per thread).
const std::string& Rfc1123Now();

}  // namespace malachite::bench
