// The Shared Key and Shared Key Lite signatures of the Table service (spec §10.2–10.4): pure
// functions from a request to its string-to-sign and from a key to a signature.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "server/http/message.h"
#include "server/http/route.h"

namespace malachite::server {

// Azure: spec §10.4 — "/" + account + the raw path as sent (account segment without
// "-secondary") + "?comp=<value>" when the query has comp. Path style therefore names the
// account twice: "/devstoreaccount1/devstoreaccount1/Tables"; host style (route.host_style) once,
// as on Azure: "/devstoreaccount1/Tables".
std::string CanonicalizedResource(const Route& route);

// Azure: spec §10.2 — VERB \n Content-MD5 \n Content-Type \n Date \n CanonicalizedResource, where
// VERB is the real method (POST when X-HTTP-Method tunnels) and Date is x-ms-date if present,
// else Date.
std::string SharedKeyStringToSign(const Request& request, const Route& route);

// Azure: spec §10.3 — Date \n CanonicalizedResource.
std::string SharedKeyLiteStringToSign(const Request& request, const Route& route);

// An account key ready to sign with HMAC-SHA256 (OpenSSL's EVP_MAC "HMAC" with SHA256). The key is
// set once; each thread re-initializes its own copy of the keyed context per signature, which
// reuses the pad digests OpenSSL computed from the key. Immutable after construction; Sign and
// Matches are thread-safe.
class HmacSha256Key {
 public:
  explicit HmacSha256Key(std::string_view raw_key);
  // base64(HMAC-SHA256(key, text)). Errors: kInternalError (with OpenSSL's reason in detail) when
  // OpenSSL fails, which only a broken OpenSSL installation does.
  Result<std::string> Sign(std::string_view text) const;

 private:
  struct State;
  std::shared_ptr<const State> state_;
};

// True when `signature` (base64) is HMAC-SHA256 of `to_sign` under one of `keys`, compared in
// constant time. Errors: those of HmacSha256Key::Sign.
Result<bool> SignatureMatches(const std::vector<HmacSha256Key>& keys, std::string_view to_sign,
                              std::string_view signature);

// base64(HMAC-SHA256(raw_key, string_to_sign)). `raw_key` is the base64-decoded account key.
// Errors: those of HmacSha256Key::Sign.
Result<std::string> ComputeSignature(std::string_view raw_key, std::string_view string_to_sign);

}  // namespace malachite::server
