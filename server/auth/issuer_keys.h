// The public keys that sign bearer tokens, read from a JSON Web Key Set (RFC 7517), and JWS
// signature verification with them through OpenSSL (RS256: RSASSA-PKCS1-v1_5 with SHA-256;
// ES256: ECDSA P-256 with SHA-256, RFC 7518 §3.3–3.4). Entra ID publishes its keys in this form
// (https://login.microsoftonline.com/<tenant>/discovery/v2.0/keys); users who mint their own test
// tokens write one (README).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace malachite::server {

enum class SignatureCheck {
  kVerified,
  kInvalid,               // the signature does not verify with the key
  kUnknownKey,            // no key has the token's kid (or, without kid, the algorithm's type)
  kUnsupportedAlgorithm,  // alg is not RS256 or ES256 ("none", HS256, ...)
};

// Immutable after Parse; Verify is thread-safe (OpenSSL keys are only read).
class IssuerKeys {
 public:
  // Parses a JWKS document: {"keys":[{"kty":"RSA","kid":..,"n":..,"e":..}, {"kty":"EC",
  // "crv":"P-256","kid":..,"x":..,"y":..}, ...]}. Keys whose "use" is present and not "sig" are
  // skipped. Errors: kInvalidInput with a one-line message: not a JSON object with a "keys"
  // array, a key missing a member or with one that is not base64url, an unsupported kty or crv,
  // an RSA modulus under 2048 bits, a point OpenSSL refuses, or no usable key at all.
  static Result<IssuerKeys> Parse(std::string_view jwks);
  // Parse of the file at `path`; errors name the file (also when it cannot be read).
  static Result<IssuerKeys> Load(const std::string& path);

  // Checks `signature` (raw bytes: the RSA signature, or R||S for ES256) over `signing_input`
  // with the key whose kid is `kid`; with an empty kid, with every key of the algorithm's type.
  SignatureCheck Verify(std::string_view alg, std::string_view kid, std::string_view signing_input,
                        std::string_view signature) const;

  std::size_t size() const { return keys_.size(); }

 private:
  struct Key;
  std::vector<std::shared_ptr<const Key>> keys_;
};

}  // namespace malachite::server
