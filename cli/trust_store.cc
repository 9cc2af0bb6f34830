#include "cli/trust_store.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace malachite::cli {
namespace {

// The static binary's OpenSSL was built for Debian (OPENSSLDIR /usr/lib/ssl, whose certs/ is
// /etc/ssl/certs); other distributions keep their bundle elsewhere. The list and its order are
// the ones Go's crypto/x509 searches (root_linux.go), a list kept current by many users.
constexpr std::string_view kBundles[] = {
    "/etc/ssl/certs/ca-certificates.crt",                 // Debian, Ubuntu, Gentoo, Arch, Alpine
    "/etc/pki/tls/certs/ca-bundle.crt",                   // Fedora, RHEL 6
    "/etc/ssl/ca-bundle.pem",                             // openSUSE
    "/etc/pki/tls/cacert.pem",                            // OpenELEC
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  // CentOS, RHEL 7+, Amazon Linux
    "/etc/ssl/cert.pem",                                  // Alpine
};

}  // namespace

std::optional<std::string> SystemTrustFile(const std::function<bool(std::string_view)>& exists) {
  for (std::string_view bundle : kBundles) {
    if (exists(bundle)) return std::string(bundle);
  }
  return std::nullopt;
}

void LoadSystemTrust(boost::asio::ssl::context& tls) {
  boost::system::error_code ec;
  tls.set_default_verify_paths(ec);  // no error to report: a missing directory is not one
  // A user's SSL_CERT_FILE / SSL_CERT_DIR is the whole answer, as for any OpenSSL program.
  if (std::getenv("SSL_CERT_FILE") != nullptr || std::getenv("SSL_CERT_DIR") != nullptr) return;
  const auto bundle = SystemTrustFile([](std::string_view path) {
    std::error_code exists_ec;
    return std::filesystem::is_regular_file(std::filesystem::path(path), exists_ec);
  });
  if (bundle) tls.load_verify_file(*bundle, ec);  // a broken file: verification says so later
}

}  // namespace malachite::cli
