// JWK -> EVP_PKEY through OSSL_PARAM_BLD / EVP_PKEY_fromdata (OpenSSL 3's provider API, no
// deprecated RSA_/EC_KEY calls), verification through EVP_DigestVerify.
#include "server/auth/issuer_keys.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <simdjson.h>

#include <fstream>
#include <sstream>

#include "common/encoding.h"

namespace malachite::server {
namespace {
enum class KeyType { kRsa, kEc };
}  // namespace

struct IssuerKeys::Key {
  std::string kid;
  KeyType type = KeyType::kRsa;
  std::shared_ptr<EVP_PKEY> pkey;
};

namespace {

constexpr std::size_t kP256CoordinateBytes = 32;
constexpr int kMinRsaBits = 2048;

tl::unexpected<Error> Bad(std::string message) {
  return Fail(ErrorCode::kInvalidInput, "issuer keys: " + std::move(message));
}

struct BignumFree {
  void operator()(BIGNUM* n) const { BN_free(n); }
};
struct ParamBuildFree {
  void operator()(OSSL_PARAM_BLD* b) const { OSSL_PARAM_BLD_free(b); }
};
struct ParamFree {
  void operator()(OSSL_PARAM* p) const { OSSL_PARAM_free(p); }
};
struct PkeyCtxFree {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};

// The EVP_PKEY of `type_name` ("RSA", "EC") built from `params`, or null.
std::shared_ptr<EVP_PKEY> FromData(const char* type_name, OSSL_PARAM_BLD* build) {
  std::unique_ptr<OSSL_PARAM, ParamFree> params(OSSL_PARAM_BLD_to_param(build));
  std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree> ctx(
      EVP_PKEY_CTX_new_from_name(nullptr, type_name, nullptr));
  EVP_PKEY* pkey = nullptr;
  if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &pkey, EVP_PKEY_PUBLIC_KEY, params.get()) != 1) {
    return nullptr;
  }
  return std::shared_ptr<EVP_PKEY>(pkey, EVP_PKEY_free);
}

// A base64url member of a JWK, decoded; nullopt when absent or malformed.
std::optional<std::string> Member(simdjson::dom::object key, std::string_view name) {
  std::string_view text;
  if (key.at_key(name).get_string().get(text)) return std::nullopt;
  return Base64UrlDecode(text);
}

Result<std::shared_ptr<EVP_PKEY>> RsaKey(simdjson::dom::object jwk) {
  auto n = Member(jwk, "n");
  auto e = Member(jwk, "e");
  if (!n || !e || n->empty() || e->empty()) return Bad("an RSA key needs base64url n and e");
  std::unique_ptr<BIGNUM, BignumFree> modulus(BN_bin2bn(
      reinterpret_cast<const unsigned char*>(n->data()), static_cast<int>(n->size()), nullptr));
  std::unique_ptr<BIGNUM, BignumFree> exponent(BN_bin2bn(
      reinterpret_cast<const unsigned char*>(e->data()), static_cast<int>(e->size()), nullptr));
  if (!modulus || !exponent) return Bad("out of memory");
  if (BN_num_bits(modulus.get()) < kMinRsaBits) return Bad("an RSA key is shorter than 2048 bits");
  std::unique_ptr<OSSL_PARAM_BLD, ParamBuildFree> build(OSSL_PARAM_BLD_new());
  if (!build || OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_RSA_N, modulus.get()) != 1 ||
      OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_RSA_E, exponent.get()) != 1) {
    return Bad("out of memory");
  }
  auto pkey = FromData("RSA", build.get());
  if (!pkey) return Bad("OpenSSL refused an RSA key");
  return pkey;
}

// Left-pads a big-endian coordinate to `size` bytes; false when it is longer.
bool PadTo(std::string& bytes, std::size_t size) {
  if (bytes.size() > size) return false;
  bytes.insert(0, size - bytes.size(), '\0');
  return true;
}

Result<std::shared_ptr<EVP_PKEY>> EcKey(simdjson::dom::object jwk) {
  std::string_view curve;
  if (jwk.at_key("crv").get_string().get(curve) || curve != "P-256") {
    return Bad("an EC key must have crv P-256");
  }
  auto x = Member(jwk, "x");
  auto y = Member(jwk, "y");
  if (!x || !y || !PadTo(*x, kP256CoordinateBytes) || !PadTo(*y, kP256CoordinateBytes)) {
    return Bad("an EC key needs base64url x and y of 32 bytes");
  }
  // SEC 1 uncompressed point: 0x04 || X || Y.
  const std::string point = std::string(1, '\x04') + *x + *y;
  char group[] = "prime256v1";
  std::unique_ptr<OSSL_PARAM_BLD, ParamBuildFree> build(OSSL_PARAM_BLD_new());
  if (!build ||
      OSSL_PARAM_BLD_push_utf8_string(build.get(), OSSL_PKEY_PARAM_GROUP_NAME, group, 0) != 1 ||
      OSSL_PARAM_BLD_push_octet_string(build.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(),
                                       point.size()) != 1) {
    return Bad("out of memory");
  }
  auto pkey = FromData("EC", build.get());
  if (!pkey) return Bad("OpenSSL refused an EC key (not a point on P-256?)");
  return pkey;
}

// ES256 signatures are R || S (32 bytes each); OpenSSL verifies DER ECDSA-Sig-Value.
std::optional<std::string> EcdsaDer(std::string_view raw) {
  if (raw.size() != 2 * kP256CoordinateBytes) return std::nullopt;
  const auto* bytes = reinterpret_cast<const unsigned char*>(raw.data());
  ECDSA_SIG* sig = ECDSA_SIG_new();
  BIGNUM* r = BN_bin2bn(bytes, kP256CoordinateBytes, nullptr);
  BIGNUM* s = BN_bin2bn(bytes + kP256CoordinateBytes, kP256CoordinateBytes, nullptr);
  if (sig == nullptr || r == nullptr || s == nullptr || ECDSA_SIG_set0(sig, r, s) != 1) {
    BN_free(r);
    BN_free(s);
    ECDSA_SIG_free(sig);
    return std::nullopt;
  }
  unsigned char* der = nullptr;
  const int length = i2d_ECDSA_SIG(sig, &der);
  ECDSA_SIG_free(sig);  // frees r and s too
  if (length <= 0) return std::nullopt;
  std::string out(reinterpret_cast<const char*>(der), static_cast<std::size_t>(length));
  OPENSSL_free(der);
  return out;
}

// SHA-256 of the default provider, fetched once (EVP_sha256() fetches on every init).
const EVP_MD* Sha256() {
  static EVP_MD* const digest = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return digest;
}

bool VerifyWith(EVP_PKEY* pkey, std::string_view data, std::string_view signature) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> md(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!md || Sha256() == nullptr ||
      EVP_DigestVerifyInit(md.get(), nullptr, Sha256(), nullptr, pkey) != 1) {
    return false;
  }
  return EVP_DigestVerify(md.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                          signature.size(), reinterpret_cast<const unsigned char*>(data.data()),
                          data.size()) == 1;
}

}  // namespace

Result<IssuerKeys> IssuerKeys::Parse(std::string_view jwks) {
  simdjson::dom::parser parser;
  simdjson::dom::array list;
  if (parser.parse(jwks.data(), jwks.size()).at_key("keys").get_array().get(list)) {
    return Bad("not a JSON Web Key Set (a JSON object with a \"keys\" array)");
  }
  IssuerKeys out;
  for (simdjson::dom::element item : list) {
    simdjson::dom::object jwk;
    std::string_view kty;
    if (item.get_object().get(jwk) || jwk.at_key("kty").get_string().get(kty)) {
      return Bad("a key is not an object with a string kty");
    }
    std::string_view use;
    if (!jwk.at_key("use").get_string().get(use) && use != "sig") continue;
    auto key = std::make_shared<Key>();
    std::string_view kid;
    if (!jwk.at_key("kid").get_string().get(kid)) key->kid = std::string(kid);
    Result<std::shared_ptr<EVP_PKEY>> pkey =
        Bad("unsupported kty '" + std::string(kty) + "' (expected RSA or EC)");
    if (kty == "RSA") pkey = RsaKey(jwk);
    if (kty == "EC") pkey = EcKey(jwk);
    if (!pkey) return tl::unexpected(pkey.error());
    key->type = kty == "RSA" ? KeyType::kRsa : KeyType::kEc;
    key->pkey = std::move(*pkey);
    out.keys_.push_back(std::move(key));
  }
  if (out.keys_.empty()) return Bad("the set holds no signing key");
  return out;
}

Result<IssuerKeys> IssuerKeys::Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(ErrorCode::kInvalidInput, "cannot read issuer keys file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  auto keys = Parse(text.str());
  if (!keys) return Fail(ErrorCode::kInvalidInput, path + ": " + keys.error().message);
  return keys;
}

SignatureCheck IssuerKeys::Verify(std::string_view alg, std::string_view kid,
                                  std::string_view signing_input,
                                  std::string_view signature) const {
  KeyType type = KeyType::kRsa;
  std::optional<std::string> der;
  if (alg == "ES256") {
    type = KeyType::kEc;
    der = EcdsaDer(signature);
    if (!der) return SignatureCheck::kInvalid;
    signature = *der;
  } else if (alg != "RS256") {
    return SignatureCheck::kUnsupportedAlgorithm;
  }
  bool found = false;
  for (const auto& key : keys_) {
    if (key->type != type || (!kid.empty() && key->kid != kid)) continue;
    found = true;
    if (VerifyWith(key->pkey.get(), signing_input, signature)) return SignatureCheck::kVerified;
  }
  return found ? SignatureCheck::kInvalid : SignatureCheck::kUnknownKey;
}

}  // namespace malachite::server
