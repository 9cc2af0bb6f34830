#pragma once

#include <boost/asio/ssl/context.hpp>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace malachite::cli {

// The system's CA bundle for a static binary, which runs on any distribution: the first file of
// the well-known list (Debian/Ubuntu/Alpine/Arch, RHEL/Fedora/Amazon Linux, openSUSE, ...) that
// `exists` says is there, or nothing. Pure, for tests; LoadSystemTrust uses it with the file
// system.
std::optional<std::string> SystemTrustFile(const std::function<bool(std::string_view)>& exists);

// Makes `tls` trust the system's certificate authorities: OpenSSL's defaults (its OPENSSLDIR, or
// SSL_CERT_FILE / SSL_CERT_DIR when set) and, when neither variable is set, SystemTrustFile's
// bundle as well. Never fails: with no bundle found, verification fails later with OpenSSL's
// "certificate verify failed", which names the problem.
void LoadSystemTrust(boost::asio::ssl::context& tls);

}  // namespace malachite::cli
