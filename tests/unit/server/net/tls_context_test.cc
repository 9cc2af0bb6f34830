#include "server/net/tls_context.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "tests/support/temp_dir.h"

namespace malachite::server {
namespace {

using KeyPtr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using CertPtr = std::unique_ptr<X509, decltype(&X509_free)>;

KeyPtr NewKey() { return KeyPtr(EVP_EC_gen("P-256"), EVP_PKEY_free); }

// A self-signed certificate for CN=localhost.
CertPtr NewCert(EVP_PKEY* key) {
  CertPtr cert(X509_new(), X509_free);
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), 0);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 3600);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  X509_sign(cert.get(), key, EVP_sha256());
  return cert;
}

void WritePfx(const std::string& path, EVP_PKEY* key, X509* cert, const char* password) {
  std::unique_ptr<PKCS12, decltype(&PKCS12_free)> p12(
      PKCS12_create(password, "malachite", key, cert, nullptr, 0, 0, 0, 0, 0), PKCS12_free);
  REQUIRE(p12);
  FILE* out = std::fopen(path.c_str(), "wb");
  REQUIRE(out != nullptr);
  REQUIRE(i2d_PKCS12_fp(out, p12.get()) == 1);
  std::fclose(out);
}

void WritePem(const std::string& cert_path, const std::string& key_path, EVP_PKEY* key,
              X509* cert) {
  FILE* c = std::fopen(cert_path.c_str(), "wb");
  PEM_write_X509(c, cert);
  std::fclose(c);
  FILE* k = std::fopen(key_path.c_str(), "wb");
  PEM_write_PrivateKey(k, key, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(k);
}

}  // namespace

TEST_CASE("tls: no --cert, no context", "[tls]") {
  auto tls = MakeTlsContext(ServerConfig{});
  REQUIRE(tls);
  CHECK_FALSE(tls->has_value());
}

TEST_CASE("tls: a PKCS#12 file opens with its password and serves its certificate", "[tls]") {
  testing::TempDir dir;
  KeyPtr key = NewKey();
  CertPtr cert = NewCert(key.get());
  const std::string pfx = dir.path() + "/server.pfx";
  WritePfx(pfx, key.get(), cert.get(), "s3cret");

  ServerConfig config;
  config.cert_file = pfx;
  config.cert_password = "s3cret";
  auto tls = MakeTlsContext(config);
  REQUIRE(tls);
  REQUIRE(tls->has_value());
  X509* loaded = SSL_CTX_get0_certificate((*tls)->native_handle());
  REQUIRE(loaded != nullptr);
  CHECK(X509_cmp(loaded, cert.get()) == 0);

  config.cert_password = "wrong";
  auto wrong = MakeTlsContext(config);
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().message ==
        "--cert-password does not open --cert '" + pfx + "' (wrong password)");

  // A PEM file given as a PFX.
  const std::string pem = dir.path() + "/server.pem";
  WritePem(pem, dir.path() + "/server.key", key.get(), cert.get());
  config.cert_file = pem;
  config.cert_password = "s3cret";
  auto not_pfx = MakeTlsContext(config);
  REQUIRE_FALSE(not_pfx);
  CHECK(not_pfx.error().message == "--cert '" + pem + "' is not a PKCS#12 (.pfx) file");
}

TEST_CASE("tls: PEM certificate and key must belong together", "[tls]") {
  testing::TempDir dir;
  KeyPtr key = NewKey();
  CertPtr cert = NewCert(key.get());
  WritePem(dir.path() + "/c.pem", dir.path() + "/k.pem", key.get(), cert.get());
  KeyPtr other = NewKey();
  CertPtr other_cert = NewCert(other.get());
  WritePem(dir.path() + "/c2.pem", dir.path() + "/k2.pem", other.get(), other_cert.get());

  ServerConfig config;
  config.cert_file = dir.path() + "/c.pem";
  config.key_file = dir.path() + "/k.pem";
  auto ok = MakeTlsContext(config);
  REQUIRE(ok);
  CHECK(ok->has_value());

  config.key_file = dir.path() + "/k2.pem";
  auto mismatch = MakeTlsContext(config);
  REQUIRE_FALSE(mismatch);
  // OpenSSL refuses the key while loading it ("key values mismatch"), or the final check does.
  CHECK(mismatch.error().message.find("--key '" + dir.path() + "/k2.pem'") != std::string::npos);

  config.cert_file = dir.path() + "/missing.pem";
  auto missing = MakeTlsContext(config);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message.find("cannot load --cert '" + dir.path() + "/missing.pem'") == 0);
}

}  // namespace malachite::server
