#include "server/net/tls_context.h"

#include <openssl/err.h>
#include <openssl/pkcs12.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <memory>
#include <string>

namespace malachite::server {
namespace asio = boost::asio;

namespace {

Error TlsError(std::string message) {
  return Error{ErrorCode::kInvalidInput, std::move(message), {}};
}

// OpenSSL's reason for the last failure, or `fallback`; the error queue is emptied either way.
std::string OpenSslReason(const char* fallback) {
  const unsigned long code = ERR_peek_last_error();
  std::string reason = code != 0 && ERR_reason_error_string(code) != nullptr
                           ? ERR_reason_error_string(code)
                           : fallback;
  ERR_clear_error();
  return reason;
}

// PKCS#12: one file with the key, the certificate and its chain, encrypted with a password. asio
// has no loader for it, so OpenSSL's is used directly on the context.
Result<void> LoadPkcs12(SSL_CTX* ctx, const ServerConfig& config) {
  const std::string where = "--cert '" + config.cert_file + "'";
  std::unique_ptr<BIO, decltype(&BIO_free)> file(BIO_new_file(config.cert_file.c_str(), "rb"),
                                                 BIO_free);
  if (!file) return tl::unexpected(TlsError("cannot read " + where));
  std::unique_ptr<PKCS12, decltype(&PKCS12_free)> p12(d2i_PKCS12_bio(file.get(), nullptr),
                                                      PKCS12_free);
  if (!p12) {
    ERR_clear_error();
    return tl::unexpected(TlsError(where + " is not a PKCS#12 (.pfx) file"));
  }
  if (PKCS12_verify_mac(p12.get(), config.cert_password.c_str(), -1) != 1) {
    ERR_clear_error();
    return tl::unexpected(TlsError("--cert-password does not open " + where + " (wrong password)"));
  }
  EVP_PKEY* key = nullptr;
  X509* cert = nullptr;
  STACK_OF(X509)* chain = nullptr;
  if (PKCS12_parse(p12.get(), config.cert_password.c_str(), &key, &cert, &chain) != 1) {
    return tl::unexpected(
        TlsError("cannot decrypt " + where + ": " + OpenSslReason("unsupported encryption")));
  }
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key_owner(key, EVP_PKEY_free);
  std::unique_ptr<X509, decltype(&X509_free)> cert_owner(cert, X509_free);
  auto free_chain = [](STACK_OF(X509) * s) { sk_X509_pop_free(s, X509_free); };
  std::unique_ptr<STACK_OF(X509), decltype(free_chain)> chain_owner(chain, free_chain);
  if (key == nullptr || cert == nullptr) {
    return tl::unexpected(TlsError(where + " holds no certificate with its private key"));
  }
  if (SSL_CTX_use_certificate(ctx, cert) != 1 || SSL_CTX_use_PrivateKey(ctx, key) != 1 ||
      SSL_CTX_check_private_key(ctx) != 1) {
    return tl::unexpected(TlsError("cannot use " + where + ": " + OpenSslReason("bad key")));
  }
  for (int i = 0; chain != nullptr && i < sk_X509_num(chain); ++i) {
    if (SSL_CTX_add1_chain_cert(ctx, sk_X509_value(chain, i)) != 1) {
      return tl::unexpected(
          TlsError("cannot use the chain of " + where + ": " + OpenSslReason("bad chain")));
    }
  }
  return {};
}

}  // namespace

Result<std::optional<asio::ssl::context>> MakeTlsContext(const ServerConfig& config) {
  std::optional<asio::ssl::context> tls;
  if (config.cert_file.empty()) return tls;
  tls.emplace(asio::ssl::context::tls_server);
  boost::system::error_code ec;
  // TLS 1.2 and 1.3 only (what the Azure SDKs and the real service use).
  tls->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                       asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                       asio::ssl::context::no_tlsv1_1,
                   ec);
  if (!config.cert_password.empty()) {
    if (auto ok = LoadPkcs12(tls->native_handle(), config); !ok) return tl::unexpected(ok.error());
    return tls;
  }
  if (tls->use_certificate_chain_file(config.cert_file, ec); ec) {
    return tl::unexpected(
        TlsError("cannot load --cert '" + config.cert_file + "': " + ec.message()));
  }
  if (tls->use_private_key_file(config.key_file, asio::ssl::context::pem, ec); ec) {
    return tl::unexpected(TlsError("cannot load --key '" + config.key_file + "': " + ec.message()));
  }
  if (SSL_CTX_check_private_key(tls->native_handle()) != 1) {
    return tl::unexpected(TlsError("--key '" + config.key_file + "' does not match --cert '" +
                                   config.cert_file + "': " + OpenSslReason("key mismatch")));
  }
  return tls;
}

}  // namespace malachite::server
