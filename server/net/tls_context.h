// The server's TLS context from --cert with --key (PEM) or --cert-password (PKCS#12 .pfx).
#pragma once

#include <boost/asio/ssl/context.hpp>
#include <optional>

#include "common/error.h"
#include "config/server_config.h"

namespace malachite::server {

// A TLS 1.2+ server context holding the configured certificate chain and key, or nullopt when
// no --cert is set. Fails with kInvalidInput and one line naming the flag: an unreadable or
// malformed file, a key that does not match the certificate, a PFX whose password is wrong.
// main() calls it before anything starts (a bad certificate is a bad flag: exit 2); the
// listener calls it again for the context it serves with.
Result<std::optional<boost::asio::ssl::context>> MakeTlsContext(const ServerConfig& config);

}  // namespace malachite::server
