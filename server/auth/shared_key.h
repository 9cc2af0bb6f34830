// The Shared Key and Shared Key Lite signatures of the Table service (spec §10.2–10.4): pure
// functions from a request to its string-to-sign and from a key to a signature.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "server/http/message.h"
#include "server/http/route.h"

namespace malachite::server {

// Azure: spec §10.4 — "/" + account + the raw path as sent (account segment without
// "-secondary") + "?comp=<value>" when the query has comp. Path style therefore names the
// account twice: "/devstoreaccount1/devstoreaccount1/Tables".
std::string CanonicalizedResource(const Route& route);

// Azure: spec §10.2 — VERB \n Content-MD5 \n Content-Type \n Date \n CanonicalizedResource, where
// VERB is the real method (POST when X-HTTP-Method tunnels) and Date is x-ms-date if present,
// else Date.
std::string SharedKeyStringToSign(const Request& request, const Route& route);

// Azure: spec §10.3 — Date \n CanonicalizedResource.
std::string SharedKeyLiteStringToSign(const Request& request, const Route& route);

// An HMAC-SHA256 key with its inner and outer pad blocks hashed once, so that signing a request
// costs two short digest runs (the one-shot HMAC() of OpenSSL 3 re-fetches the algorithm and
// re-hashes the pads on every call: ~5x slower). Immutable after construction; Sign is
// thread-safe.
class HmacSha256Key {
 public:
  explicit HmacSha256Key(std::string_view raw_key);
  // base64(HMAC-SHA256(key, text)).
  std::string Sign(std::string_view text) const;

 private:
  struct Contexts;
  std::shared_ptr<const Contexts> contexts_;
};

// base64(HMAC-SHA256(raw_key, string_to_sign)). `raw_key` is the base64-decoded account key.
std::string ComputeSignature(std::string_view raw_key, std::string_view string_to_sign);

}  // namespace malachite::server
